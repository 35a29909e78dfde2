/**
 * Audio as plain float samples (-1..1), one Float32Array per channel, and its WAV encoding. The
 * local plugin synthesises music and effects in JavaScript (deterministic, no expression parser to
 * fight) and hands WAV to ffmpeg only for the MP3 encoding.
 */
export interface PcmAudio {
  sampleRate: number;
  channels: Float32Array[];
}

export function createPcm(sampleRate: number, channelCount: number, seconds: number): PcmAudio {
  const length = Math.max(1, Math.round(sampleRate * seconds));
  return { sampleRate, channels: Array.from({ length: channelCount }, () => new Float32Array(length)) };
}

export function durationOf(audio: PcmAudio): number {
  return audio.channels[0].length / audio.sampleRate;
}

/** 16-bit PCM WAV. */
export function encodeWav(audio: PcmAudio): Buffer {
  const channelCount = audio.channels.length;
  const frames = audio.channels[0].length;
  const dataBytes = frames * channelCount * 2;
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(channelCount, 22);
  buffer.writeUInt32LE(audio.sampleRate, 24);
  buffer.writeUInt32LE(audio.sampleRate * channelCount * 2, 28);
  buffer.writeUInt16LE(channelCount * 2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataBytes, 40);
  let offset = 44;
  for (let frame = 0; frame < frames; frame += 1) {
    for (let channel = 0; channel < channelCount; channel += 1) {
      const sample = Math.max(-1, Math.min(1, audio.channels[channel][frame]));
      buffer.writeInt16LE(Math.round(sample * 32767), offset);
      offset += 2;
    }
  }
  return buffer;
}

/** Reads 16-bit PCM WAV (what espeak-ng writes); other encodings are rejected. */
export function decodeWav(bytes: Uint8Array): PcmAudio {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.toString('ascii', 0, 4) !== 'RIFF' || buffer.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let offset = 12;
  let sampleRate = 0;
  let channelCount = 0;
  let bitsPerSample = 0;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString('ascii', offset, offset + 4);
    // Streaming writers leave the data size at 0 or 0xffffffff; the rest of the file is the data then.
    const declared = buffer.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      channelCount = buffer.readUInt16LE(body + 2);
      sampleRate = buffer.readUInt32LE(body + 4);
      bitsPerSample = buffer.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (bitsPerSample !== 16 || channelCount === 0) throw new Error('only 16-bit PCM WAV is supported');
      const size = declared === 0 || body + declared > buffer.length ? buffer.length - body : declared;
      const frames = Math.floor(size / (2 * channelCount));
      const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
      for (let frame = 0; frame < frames; frame += 1) {
        for (let channel = 0; channel < channelCount; channel += 1) {
          channels[channel][frame] = buffer.readInt16LE(body + (frame * channelCount + channel) * 2) / 32768;
        }
      }
      return { sampleRate, channels };
    }
    offset = body + declared + (declared % 2);
  }
  throw new Error('WAV file has no data chunk');
}

/** Scales so the loudest sample sits at `peak` (never amplifies silence). */
export function normalise(audio: PcmAudio, peak = 0.89): void {
  let max = 0;
  for (const channel of audio.channels) for (const sample of channel) max = Math.max(max, Math.abs(sample));
  if (max < 1e-6) return;
  const gain = peak / max;
  for (const channel of audio.channels) for (let index = 0; index < channel.length; index += 1) channel[index] *= gain;
}

/** Linear fades at both ends, against clicks. */
export function fadeEdges(audio: PcmAudio, fadeInSeconds: number, fadeOutSeconds: number): void {
  const fadeIn = Math.round(fadeInSeconds * audio.sampleRate);
  const fadeOut = Math.round(fadeOutSeconds * audio.sampleRate);
  for (const channel of audio.channels) {
    const length = channel.length;
    for (let index = 0; index < Math.min(fadeIn, length); index += 1) channel[index] *= index / fadeIn;
    for (let index = 0; index < Math.min(fadeOut, length); index += 1) channel[length - 1 - index] *= index / fadeOut;
  }
}

/**
 * Makes `audio` loop seamlessly at `loopSeconds`: the material rendered past the loop point is
 * cross-faded (equal power) into the start, so the last sample flows into the first.
 */
export function foldIntoLoop(audio: PcmAudio, loopSeconds: number, crossfadeSeconds: number): PcmAudio {
  const loopLength = Math.round(loopSeconds * audio.sampleRate);
  const fade = Math.min(Math.round(crossfadeSeconds * audio.sampleRate), audio.channels[0].length - loopLength, loopLength);
  const channels = audio.channels.map((channel) => {
    const looped = channel.slice(0, loopLength);
    for (let index = 0; index < fade; index += 1) {
      const position = index / fade;
      const tail = channel[loopLength + index];
      looped[index] = looped[index] * Math.sin((position * Math.PI) / 2) + tail * Math.cos((position * Math.PI) / 2);
    }
    return looped;
  });
  return { sampleRate: audio.sampleRate, channels };
}

/**
 * Loops music exactly at `loopSeconds`: whatever rings past the loop point (a chord's release) is
 * added onto the start, which is what an endlessly repeated render would sound like there.
 */
export function wrapTail(audio: PcmAudio, loopSeconds: number): PcmAudio {
  const loopLength = Math.round(loopSeconds * audio.sampleRate);
  const channels = audio.channels.map((channel) => {
    const looped = channel.slice(0, loopLength);
    for (let index = loopLength; index < channel.length; index += 1) looped[(index - loopLength) % loopLength] += channel[index];
    return looped;
  });
  return { sampleRate: audio.sampleRate, channels };
}

/** Joins clips of the same sample rate and channel count end to end. */
export function concatPcm(parts: PcmAudio[]): PcmAudio {
  const [first] = parts;
  const length = parts.reduce((sum, part) => sum + part.channels[0].length, 0);
  const channels = first.channels.map((_, channelIndex) => {
    const joined = new Float32Array(length);
    let offset = 0;
    for (const part of parts) {
      joined.set(part.channels[channelIndex], offset);
      offset += part.channels[channelIndex].length;
    }
    return joined;
  });
  return { sampleRate: first.sampleRate, channels };
}
