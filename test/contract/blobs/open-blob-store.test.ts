/** Choosing the blob adapter from the storage setting: folders, buckets, and clear refusals. */
import { expect } from 'chai';
import { LocalFolderBlobs, S3Blobs, openBlobStore } from '../../../src/kernel/blobs/index.js';

describe('openBlobStore', () => {
  it('opens a folder for a path or a file: URL', () => {
    expect(openBlobStore('./data/files')).to.be.instanceOf(LocalFolderBlobs);
    expect(openBlobStore('/srv/mediagate/files')).to.be.instanceOf(LocalFolderBlobs);
    expect(openBlobStore('file:///srv/mediagate/files')).to.be.instanceOf(LocalFolderBlobs);
  });

  it('opens a bucket for s3://bucket/prefix, path-style when an endpoint is given', () => {
    const store = openBlobStore('s3://media-bucket/mediagate/files', { s3Endpoint: 'http://127.0.0.1:9000', env: { AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret' } });
    expect(store).to.be.instanceOf(S3Blobs);
    expect({ bucket: (store as S3Blobs).bucket, prefix: (store as S3Blobs).prefix }).to.deep.equal({ bucket: 'media-bucket', prefix: 'mediagate/files/' });
    (store as S3Blobs).destroy();
    const atRoot = openBlobStore('s3://media-bucket', { env: {} }) as S3Blobs;
    expect(atRoot.prefix).to.equal('');
    atRoot.destroy();
  });

  it('says what it accepts for anything else, without echoing secrets', () => {
    expect(() => openBlobStore('gs://bucket/x')).to.throw('blob storage scheme "gs://" is not supported: use a folder path, file:///path or s3://bucket/prefix');
    expect(() => openBlobStore('https://user:pw@example.com/x')).to.throw(/^blob storage scheme "https:\/\/" is not supported/);
    expect(() => openBlobStore('s3://key:secret@bucket/x', { env: {} })).to.throw('blob storage URL must not carry credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead');
    expect(() => openBlobStore('s3://Bad_Bucket/x', { env: {} })).to.throw('blob storage bucket "Bad_Bucket" is not a valid bucket name (s3://bucket/prefix)');
    expect(() => openBlobStore('s3://bucket/x', { env: { AWS_ACCESS_KEY_ID: 'only-half' } })).to.throw('set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither');
    expect(() => openBlobStore(' ')).to.throw('blob storage location is empty: use a folder path, file:///path or s3://bucket/prefix');
  });
});
