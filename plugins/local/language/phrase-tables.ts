/**
 * The words the prompt rewriter may add, per language. The client's own prompt is never translated;
 * these phrases only add style, framing and camera direction in the prompt's language.
 */
import type { KnownLanguage } from './detect-language.js';

export interface PhraseTable {
  /** Ends a sentence: "." or "。". */
  stop: string;
  /** Joins items of a list: ", " or "、". */
  comma: string;
  /** Between sentences: " " or "" for scripts written without spaces. */
  space: string;
  style(style: string): string;
  framing: { landscape(ratio: string): string; portrait(ratio: string): string; square(ratio: string): string };
  /** Quality cues for still images. */
  imageDetail: string;
  /** Camera directions for video; one is picked per prompt. */
  cameraMoves: readonly string[];
  motion: string;
  shotLength(seconds: number): string;
}

export const PHRASE_TABLES: Record<KnownLanguage, PhraseTable> = {
  en: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `${style} style`,
    framing: {
      landscape: (ratio) => `widescreen ${ratio} composition`,
      portrait: (ratio) => `vertical ${ratio} composition`,
      square: (ratio) => `square ${ratio} composition`,
    },
    imageDetail: 'rich detail, balanced composition, soft natural light',
    cameraMoves: ['slow dolly-in, eye-level', 'smooth tracking shot, eye-level', 'gentle crane up, wide angle'],
    motion: 'steady, fluid motion',
    shotLength: (seconds) => `${seconds}-second shot`,
  },
  fr: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `style ${style}`,
    framing: {
      landscape: (ratio) => `cadrage panoramique ${ratio}`,
      portrait: (ratio) => `cadrage vertical ${ratio}`,
      square: (ratio) => `cadrage carré ${ratio}`,
    },
    imageDetail: 'détails riches, composition équilibrée, lumière naturelle douce',
    cameraMoves: [
      'lent travelling avant, à hauteur des yeux',
      'travelling latéral fluide, à hauteur des yeux',
      'douce montée à la grue, plan large',
    ],
    motion: 'mouvement fluide et régulier',
    shotLength: (seconds) => `plan de ${seconds} secondes`,
  },
  es: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `estilo ${style}`,
    framing: {
      landscape: (ratio) => `encuadre panorámico ${ratio}`,
      portrait: (ratio) => `encuadre vertical ${ratio}`,
      square: (ratio) => `encuadre cuadrado ${ratio}`,
    },
    imageDetail: 'detalles ricos, composición equilibrada, luz natural suave',
    cameraMoves: [
      'lento travelling de acercamiento, a la altura de los ojos',
      'plano de seguimiento suave, a la altura de los ojos',
      'suave subida con grúa, plano general',
    ],
    motion: 'movimiento fluido y constante',
    shotLength: (seconds) => `plano de ${seconds} segundos`,
  },
  de: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `im Stil ${style}`,
    framing: {
      landscape: (ratio) => `Breitbild-Komposition im Format ${ratio}`,
      portrait: (ratio) => `Hochformat-Komposition im Format ${ratio}`,
      square: (ratio) => `quadratische Komposition im Format ${ratio}`,
    },
    imageDetail: 'reiche Details, ausgewogene Komposition, weiches natürliches Licht',
    cameraMoves: [
      'langsame Kamerafahrt nach vorn, auf Augenhöhe',
      'ruhige Verfolgungsfahrt, auf Augenhöhe',
      'sanfte Kranfahrt nach oben, Weitwinkel',
    ],
    motion: 'gleichmäßige, fließende Bewegung',
    shotLength: (seconds) => `Einstellung von ${seconds} Sekunden`,
  },
  it: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `stile ${style}`,
    framing: {
      landscape: (ratio) => `inquadratura panoramica ${ratio}`,
      portrait: (ratio) => `inquadratura verticale ${ratio}`,
      square: (ratio) => `inquadratura quadrata ${ratio}`,
    },
    imageDetail: 'dettagli ricchi, composizione equilibrata, luce naturale morbida',
    cameraMoves: [
      "lenta carrellata in avanti, all'altezza degli occhi",
      "carrellata laterale fluida, all'altezza degli occhi",
      "dolce movimento di gru verso l'alto, campo lungo",
    ],
    motion: 'movimento fluido e costante',
    shotLength: (seconds) => `inquadratura di ${seconds} secondi`,
  },
  pt: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `estilo ${style}`,
    framing: {
      landscape: (ratio) => `enquadramento panorâmico ${ratio}`,
      portrait: (ratio) => `enquadramento vertical ${ratio}`,
      square: (ratio) => `enquadramento quadrado ${ratio}`,
    },
    imageDetail: 'detalhes ricos, composição equilibrada, luz natural suave',
    cameraMoves: [
      'travelling lento de aproximação, ao nível dos olhos',
      'travelling lateral suave, ao nível dos olhos',
      'subida suave de grua, plano geral',
    ],
    motion: 'movimento fluido e constante',
    shotLength: (seconds) => `plano de ${seconds} segundos`,
  },
  ja: {
    stop: '。',
    comma: '、',
    space: '',
    style: (style) => `${style}スタイル`,
    framing: {
      landscape: (ratio) => `${ratio}のワイド構図`,
      portrait: (ratio) => `${ratio}の縦長構図`,
      square: (ratio) => `${ratio}の正方形構図`,
    },
    imageDetail: '豊かなディテール、バランスの取れた構図、柔らかな自然光',
    cameraMoves: ['ゆっくりとしたドリーイン、目線の高さ', '滑らかなトラッキングショット、目線の高さ', '穏やかなクレーンアップ、広角'],
    motion: '安定した滑らかな動き',
    shotLength: (seconds) => `${seconds}秒のショット`,
  },
  zh: {
    stop: '。',
    comma: '，',
    space: '',
    style: (style) => `${style}风格`,
    framing: {
      landscape: (ratio) => `${ratio}宽屏构图`,
      portrait: (ratio) => `${ratio}竖屏构图`,
      square: (ratio) => `${ratio}方形构图`,
    },
    imageDetail: '丰富的细节，均衡的构图，柔和的自然光',
    cameraMoves: ['缓慢推镜，平视角度', '平稳跟拍镜头，平视角度', '缓缓升起的摇臂镜头，广角'],
    motion: '稳定流畅的运动',
    shotLength: (seconds) => `${seconds}秒镜头`,
  },
  ko: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `${style} 스타일`,
    framing: {
      landscape: (ratio) => `${ratio} 와이드 구도`,
      portrait: (ratio) => `${ratio} 세로 구도`,
      square: (ratio) => `${ratio} 정사각형 구도`,
    },
    imageDetail: '풍부한 디테일, 균형 잡힌 구도, 부드러운 자연광',
    cameraMoves: ['느린 돌리 인, 눈높이', '부드러운 트래킹 숏, 눈높이', '완만한 크레인 업, 광각'],
    motion: '안정적이고 부드러운 움직임',
    shotLength: (seconds) => `${seconds}초 길이의 숏`,
  },
  ru: {
    stop: '.',
    comma: ', ',
    space: ' ',
    style: (style) => `в стиле «${style}»`,
    framing: {
      landscape: (ratio) => `широкоформатная композиция ${ratio}`,
      portrait: (ratio) => `вертикальная композиция ${ratio}`,
      square: (ratio) => `квадратная композиция ${ratio}`,
    },
    imageDetail: 'богатая детализация, сбалансированная композиция, мягкий естественный свет',
    cameraMoves: ['медленный наезд камеры, на уровне глаз', 'плавная следящая съёмка, на уровне глаз', 'мягкий подъём на кране, общий план'],
    motion: 'ровное, плавное движение',
    shotLength: (seconds) => `кадр длительностью ${seconds} с`,
  },
};
