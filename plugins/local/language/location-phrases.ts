/**
 * What the offline location enhancer (prompt.enhance.location) adds, per language: where the viewer stands and
 * what is in view, as a phrase that continues the place's own description (so the rewrite reads "an abandoned
 * station, with a view from one standpoint ..."), then a sentence on how the space reads. three_d.location.generate
 * builds one space around one standpoint, so every rewrite says so. The phrases avoid participles that would have
 * to agree with the client's noun; the client's words are never translated.
 */
import type { KnownLanguage } from './detect-language.js';

export interface LocationPhrases {
  /** Where the viewer stands, by `setting`; `any` when the client did not say. Joined to the place by a comma. */
  standpoint: { interior: string; exterior: string; any: string };
  /** A whole sentence with its own punctuation. */
  surfaces: string;
}

export const LOCATION_PHRASES: Record<KnownLanguage, LocationPhrases> = {
  en: {
    standpoint: {
      interior: 'seen from one standpoint in the middle of the space, with the walls, floor and ceiling all in view',
      exterior: 'seen from one standpoint in the open, with the ground, the surroundings on every side and the sky all in view',
      any: 'seen from a single standpoint, with its surroundings visible in every direction',
    },
    surfaces: 'Clear layout, real materials and textures, consistent lighting throughout.',
  },
  fr: {
    standpoint: {
      interior: "avec une vue depuis un point au centre de l'espace sur les murs, le sol et le plafond",
      exterior: 'avec une vue depuis un point en plein air sur le sol, les alentours de tous côtés et le ciel',
      any: 'avec une vue depuis un seul point sur les alentours, dans toutes les directions',
    },
    surfaces: 'Agencement clair, matériaux et textures réalistes, éclairage cohérent partout.',
  },
  es: {
    standpoint: {
      interior: 'con una vista desde un punto en el centro del espacio hacia las paredes, el suelo y el techo',
      exterior: 'con una vista desde un punto al aire libre hacia el suelo, el entorno por todos lados y el cielo',
      any: 'con una vista desde un solo punto hacia el entorno, en todas las direcciones',
    },
    surfaces: 'Distribución clara, materiales y texturas realistas, iluminación coherente en todo el espacio.',
  },
  de: {
    standpoint: {
      interior: 'mit Blick von einem Standpunkt in der Mitte des Raums auf Wände, Boden und Decke',
      exterior: 'mit Blick von einem Standpunkt im Freien auf den Boden, die Umgebung auf allen Seiten und den Himmel',
      any: 'mit Blick von einem einzigen Standpunkt auf die Umgebung in alle Richtungen',
    },
    surfaces: 'Klare Anordnung, echte Materialien und Texturen, durchgehend einheitliche Beleuchtung.',
  },
  it: {
    standpoint: {
      interior: 'con una vista da un punto al centro dello spazio su pareti, pavimento e soffitto',
      exterior: "con una vista da un punto all'aperto sul terreno, sui dintorni da ogni lato e sul cielo",
      any: 'con una vista da un solo punto sui dintorni, in ogni direzione',
    },
    surfaces: 'Disposizione chiara, materiali e texture realistici, illuminazione coerente ovunque.',
  },
  pt: {
    standpoint: {
      interior: 'com uma vista de um ponto no centro do espaço para as paredes, o chão e o teto',
      exterior: 'com uma vista de um ponto ao ar livre para o chão, os arredores de todos os lados e o céu',
      any: 'com uma vista de um só ponto para os arredores, em todas as direções',
    },
    surfaces: 'Disposição clara, materiais e texturas realistas, iluminação coerente em todo o espaço.',
  },
  ja: {
    standpoint: {
      interior: '空間の中央の一点から壁・床・天井を見渡す眺め',
      exterior: '屋外のひとつの地点から地面・四方の周囲・空を見渡す眺め',
      any: 'ひとつの地点から周囲をあらゆる方向に見渡す眺め',
    },
    surfaces: 'わかりやすい配置、本物の素材と質感、全体に一貫した照明。',
  },
  zh: {
    standpoint: {
      interior: '从空间中央的一个位置望向墙壁、地面和天花板的视角',
      exterior: '从户外一个位置望向地面、四周环境和天空的视角',
      any: '从一个位置望向四周各个方向的视角',
    },
    surfaces: '布局清晰，材质和纹理真实，整体光照一致。',
  },
  ko: {
    standpoint: {
      interior: '공간 한가운데의 한 지점에서 벽, 바닥, 천장을 바라보는 시점',
      exterior: '야외의 한 지점에서 땅, 사방의 주변, 하늘을 바라보는 시점',
      any: '한 지점에서 주변을 모든 방향으로 바라보는 시점',
    },
    surfaces: '명확한 배치, 실제 같은 재질과 질감, 전체적으로 일관된 조명.',
  },
  ru: {
    standpoint: {
      interior: 'с видом из одной точки в центре пространства на стены, пол и потолок',
      exterior: 'с видом из одной точки под открытым небом на землю, окрестности со всех сторон и небо',
      any: 'с видом из одной точки на окружение во всех направлениях',
    },
    surfaces: 'Ясная планировка, реалистичные материалы и фактуры, равномерное освещение повсюду.',
  },
};
