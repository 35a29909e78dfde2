/**
 * The words the prompt rewriter may add, per language. The client's own prompt is never translated;
 * these phrases only add style, framing, light, setting and camera direction in the prompt's language.
 *
 * Cues are what the rewriter looks for before adding a phrase of the same kind, so that it never contradicts
 * the prompt ("at night" gets no golden-hour light, "a red bicycle" no palette). In languages written with
 * spaces a cue is a whole word or phrase, or, ending in `-`, the start of any word: inflected languages list
 * stems ("ноч-" finds every case of "ночь"; Korean "밤-" finds "밤에"). In Japanese and Chinese a cue
 * matches anywhere. A cue that matches too much only leaves a phrase out; one that matches too little may
 * add a light the prompt did not want, so the lists lean towards matching.
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
  /** Kinds of light; one is added when the prompt names no light or time of day (`lightCues`). */
  lighting: readonly string[];
  lightCues: readonly string[];
  /** Palettes; one is added to a short prompt that names no colour (`colourCues`). */
  palettes: readonly string[];
  colourCues: readonly string[];
  /** Backgrounds, for short prompts that name only a subject. */
  settings: readonly string[];
  /** Lens and focus for short image prompts. */
  lenses: readonly string[];
  /** What moves, for short video prompts. */
  actions: readonly string[];
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
    imageDetail: 'rich detail, balanced composition',
    cameraMoves: ['slow dolly-in, eye-level', 'smooth tracking shot, eye-level', 'gentle crane up, wide angle'],
    motion: 'steady, fluid motion',
    shotLength: (seconds) => `${seconds}-second shot`,
    lighting: ['soft natural light', 'warm golden-hour light', 'diffused overcast light', 'cool blue-hour light'],
    lightCues: ['light', 'lights', 'lighting', 'lit', 'sunlight', 'sunlit', 'moonlight', 'moonlit', 'candlelight', 'sun', 'sunny',
      'sunset', 'sunrise', 'dawn', 'dusk', 'twilight', 'night', 'nights', 'midnight', 'nighttime', 'moon', 'noon', 'morning',
      'evening', 'neon', 'shadow', 'shadows', 'glow', 'glowing', 'dark', 'darkness', 'candle', 'candles', 'lamp', 'lamps',
      'lantern', 'backlit', 'overcast', 'golden hour', 'blue hour'],
    palettes: ['harmonious natural colours', 'muted earthy palette', 'vivid yet balanced colours'],
    colourCues: ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'violet', 'pink', 'brown', 'black', 'white', 'grey', 'gray',
      'gold', 'golden', 'silver', 'colour', 'color', 'colours', 'colors', 'colourful', 'colorful', 'crimson', 'teal', 'turquoise',
      'beige', 'pastel', 'monochrome'],
    settings: ['calm uncluttered background', 'soft atmospheric depth behind the subject', 'simple setting that frames the subject'],
    lenses: ['shallow depth of field, sharp focus on the subject', 'eye-level view, 50 mm lens', 'gentle wide-angle perspective'],
    actions: ['subtle, natural movement', 'a gentle breeze stirring the scene', 'slow, lifelike motion of the subject'],
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
    imageDetail: 'détails riches, composition équilibrée',
    cameraMoves: [
      'lent travelling avant, à hauteur des yeux',
      'travelling latéral fluide, à hauteur des yeux',
      'douce montée à la grue, plan large',
    ],
    motion: 'mouvement fluide et régulier',
    shotLength: (seconds) => `plan de ${seconds} secondes`,
    lighting: ['lumière naturelle douce', 'lumière chaude de fin de journée', "lumière diffuse d'un ciel couvert", "lumière froide de l'heure bleue"],
    lightCues: ['lumi-', 'soleil', 'ensoleill-', 'coucher', 'lever du soleil', 'aube', 'aurore', 'crépuscule', 'nuit', 'nuits',
      'nocturne', 'lune', 'midi', 'matin', 'soir', 'soirée', 'néon', 'ombr-', 'lueur', 'lueurs', 'sombre', 'sombres', 'bougie-',
      'lampe-', 'éclair-', 'contre jour'],
    palettes: ['couleurs naturelles et harmonieuses', 'palette terreuse et feutrée', 'couleurs vives mais équilibrées'],
    colourCues: ['roug-', 'roux', 'rousse', 'orang-', 'jaun-', 'vert', 'verte', 'verts', 'vertes', 'bleu-', 'violet-', 'rose',
      'roses', 'marron', 'brun-', 'noir-', 'blanc-', 'blanch-', 'gris-', 'doré-', 'argent-', 'couleur-', 'coloré-', 'pastel-',
      'monochrom-'],
    settings: ['arrière-plan calme et épuré', 'douce profondeur atmosphérique derrière le sujet', 'décor simple qui met le sujet en valeur'],
    lenses: ['faible profondeur de champ, sujet net', 'vue à hauteur des yeux, objectif de 50 mm', 'légère perspective grand-angle'],
    actions: ['mouvement subtil et naturel', 'une légère brise qui anime la scène', 'mouvement lent et réaliste du sujet'],
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
    imageDetail: 'detalles ricos, composición equilibrada',
    cameraMoves: [
      'lento travelling de acercamiento, a la altura de los ojos',
      'plano de seguimiento suave, a la altura de los ojos',
      'suave subida con grúa, plano general',
    ],
    motion: 'movimiento fluido y constante',
    shotLength: (seconds) => `plano de ${seconds} segundos`,
    lighting: ['luz natural suave', 'cálida luz del atardecer', 'luz difusa de cielo nublado', 'fría luz de la hora azul'],
    lightCues: ['luz', 'luces', 'ilumin-', 'sol', 'soleado', 'soleada', 'atardec-', 'amanec-', 'alba', 'anochec-', 'crepúsc-',
      'noche-', 'nocturn-', 'luna', 'mediodía', 'mañana', 'tarde', 'neón', 'sombr-', 'brill-', 'oscur-', 'vela-', 'lámpar-',
      'contraluz'],
    palettes: ['colores naturales y armoniosos', 'paleta terrosa y apagada', 'colores vivos pero equilibrados'],
    colourCues: ['roj-', 'naranj-', 'amarill-', 'verde-', 'azul-', 'morad-', 'violet-', 'rosa-', 'marrón', 'negr-', 'blanc-',
      'gris-', 'dorad-', 'platead-', 'color-', 'pastel-', 'monocrom-'],
    settings: ['fondo tranquilo y despejado', 'suave profundidad atmosférica detrás del sujeto', 'entorno sencillo que enmarca al sujeto'],
    lenses: ['poca profundidad de campo, sujeto nítido', 'vista a la altura de los ojos, objetivo de 50 mm', 'suave perspectiva gran angular'],
    actions: ['movimiento sutil y natural', 'una suave brisa que anima la escena', 'movimiento lento y realista del sujeto'],
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
    imageDetail: 'reiche Details, ausgewogene Komposition',
    cameraMoves: [
      'langsame Kamerafahrt nach vorn, auf Augenhöhe',
      'ruhige Verfolgungsfahrt, auf Augenhöhe',
      'sanfte Kranfahrt nach oben, Weitwinkel',
    ],
    motion: 'gleichmäßige, fließende Bewegung',
    shotLength: (seconds) => `Einstellung von ${seconds} Sekunden`,
    lighting: ['weiches natürliches Licht', 'warmes Licht der goldenen Stunde', 'diffuses Licht eines bedeckten Himmels', 'kühles Licht der blauen Stunde'],
    lightCues: ['licht-', 'beleucht-', 'sonn-', 'morgengrau-', 'dämmer-', 'abenddämmer-', 'nacht', 'nächt-', 'mond-', 'mittag-',
      'morgen-', 'abend-', 'neon-', 'schatten-', 'leucht-', 'dunkel-', 'kerze-', 'lampe-', 'gegenlicht-', 'goldene stunde',
      'blaue stunde'],
    palettes: ['harmonische natürliche Farben', 'gedämpfte erdige Farbpalette', 'kräftige, aber ausgewogene Farben'],
    colourCues: ['rot', 'rote-', 'roter', 'rotes', 'orange-', 'gelb-', 'grün-', 'blau-', 'lila', 'violett-', 'rosa', 'braun-',
      'schwarz-', 'weiß-', 'weiss-', 'grau-', 'gold-', 'silber-', 'farb-', 'bunt-', 'pastell-'],
    settings: ['ruhiger, aufgeräumter Hintergrund', 'sanfte atmosphärische Tiefe hinter dem Motiv', 'schlichte Umgebung, die das Motiv rahmt'],
    lenses: ['geringe Schärfentiefe, scharfes Motiv', 'Blick auf Augenhöhe, 50-mm-Objektiv', 'leichte Weitwinkelperspektive'],
    actions: ['subtile, natürliche Bewegung', 'eine sanfte Brise, die die Szene belebt', 'langsame, lebensechte Bewegung des Motivs'],
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
    imageDetail: 'dettagli ricchi, composizione equilibrata',
    cameraMoves: [
      "lenta carrellata in avanti, all'altezza degli occhi",
      "carrellata laterale fluida, all'altezza degli occhi",
      "dolce movimento di gru verso l'alto, campo lungo",
    ],
    motion: 'movimento fluido e costante',
    shotLength: (seconds) => `inquadratura di ${seconds} secondi`,
    lighting: ['luce naturale morbida', "calda luce dell'ora dorata", 'luce diffusa di un cielo coperto', "fredda luce dell'ora blu"],
    lightCues: ['luce', 'luci', 'illumin-', 'sole', 'soleggi-', 'tramont-', 'alba', 'crepusc-', 'notte', 'notti', 'nottur-',
      'luna', 'mezzogiorno', 'mattin-', 'sera', 'serata', 'neon', 'ombr-', 'bagliore', 'buio', 'scur-', 'candel-', 'lampad-',
      'controluce'],
    palettes: ['colori naturali e armoniosi', 'tavolozza terrosa e smorzata', 'colori vivaci ma equilibrati'],
    colourCues: ['ross-', 'arancion-', 'giall-', 'verde', 'verdi', 'blu', 'azzurr-', 'viola', 'rosa', 'marron-', 'nero', 'nera',
      'neri', 'nere', 'bianc-', 'grigi-', 'dorat-', 'argent-', 'color-', 'pastell-', 'monocrom-'],
    settings: ['sfondo calmo e ordinato', 'morbida profondità atmosferica dietro il soggetto', 'ambiente semplice che incornicia il soggetto'],
    lenses: ['profondità di campo ridotta, soggetto nitido', "vista all'altezza degli occhi, obiettivo da 50 mm", 'leggera prospettiva grandangolare'],
    actions: ['movimento sottile e naturale', 'una leggera brezza che anima la scena', 'movimento lento e realistico del soggetto'],
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
    imageDetail: 'detalhes ricos, composição equilibrada',
    cameraMoves: [
      'travelling lento de aproximação, ao nível dos olhos',
      'travelling lateral suave, ao nível dos olhos',
      'subida suave de grua, plano geral',
    ],
    motion: 'movimento fluido e constante',
    shotLength: (seconds) => `plano de ${seconds} segundos`,
    lighting: ['luz natural suave', 'luz quente do fim de tarde', 'luz difusa de céu nublado', 'luz fria da hora azul'],
    lightCues: ['luz', 'luzes', 'ilumin-', 'sol', 'ensolarad-', 'pôr do sol', 'nascer do sol', 'amanhec-', 'alvorada', 'anoitec-',
      'crepúsc-', 'noite-', 'notur-', 'lua', 'meio dia', 'manhã', 'tarde', 'néon', 'neon', 'sombr-', 'brilh-', 'escur-', 'vela-',
      'lâmpad-', 'contraluz'],
    palettes: ['cores naturais e harmoniosas', 'paleta terrosa e suave', 'cores vivas mas equilibradas'],
    colourCues: ['vermelh-', 'laranj-', 'amarel-', 'verde-', 'azul-', 'roxo-', 'roxa-', 'violeta-', 'rosa-', 'marrom', 'castanh-',
      'pret-', 'branc-', 'cinza-', 'dourad-', 'pratead-', 'cor', 'cores', 'colorid-', 'pastel-', 'monocrom-'],
    settings: ['fundo calmo e limpo', 'suave profundidade atmosférica atrás do motivo', 'cenário simples que enquadra o motivo'],
    lenses: ['pouca profundidade de campo, motivo nítido', 'vista à altura dos olhos, objetiva de 50 mm', 'leve perspectiva grande-angular'],
    actions: ['movimento sutil e natural', 'uma brisa suave que anima a cena', 'movimento lento e realista do motivo'],
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
    imageDetail: '豊かなディテール、バランスの取れた構図',
    cameraMoves: ['ゆっくりとしたドリーイン、目線の高さ', '滑らかなトラッキングショット、目線の高さ', '穏やかなクレーンアップ、広角'],
    motion: '安定した滑らかな動き',
    shotLength: (seconds) => `${seconds}秒のショット`,
    lighting: ['柔らかな自然光', '夕方の暖かな光', '曇り空の拡散光', 'ブルーアワーの青い光'],
    lightCues: ['光', 'ライト', '照明', '日差し', '陽', '太陽', '夕', '朝', '夜', '月', '昼', 'ネオン', '影', '闇', '暗', '灯', 'ろうそく', 'ランプ', '黄昏'],
    palettes: ['調和のとれた自然な色合い', '落ち着いたアースカラー', '鮮やかでバランスのよい色彩'],
    colourCues: ['赤', '橙', 'オレンジ', '黄', '緑', '青', '紫', 'ピンク', '茶', '黒', '白', '灰', '金', '銀', '色', 'カラー', 'パステル', 'モノクロ'],
    settings: ['落ち着いたすっきりとした背景', '被写体の奥に広がる柔らかな空気感', '被写体を引き立てるシンプルな背景'],
    lenses: ['浅い被写界深度、被写体にくっきりとピント', '目線の高さ、50mmレンズ', '穏やかな広角の遠近感'],
    actions: ['さりげない自然な動き', 'そよ風が場面を揺らす', '被写体のゆっくりとした自然な動き'],
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
    imageDetail: '丰富的细节，均衡的构图',
    cameraMoves: ['缓慢推镜，平视角度', '平稳跟拍镜头，平视角度', '缓缓升起的摇臂镜头，广角'],
    motion: '稳定流畅的运动',
    shotLength: (seconds) => `${seconds}秒镜头`,
    lighting: ['柔和的自然光', '温暖的黄昏光线', '阴天的漫射光', '蓝调时刻的冷色光'],
    lightCues: ['光', '灯', '照明', '阳', '日落', '日出', '黄昏', '夕', '黎明', '晨', '早上', '夜', '月', '正午', '霓虹', '影', '暗', '烛', '傍晚'],
    palettes: ['和谐自然的色彩', '柔和的大地色调', '鲜艳而平衡的色彩'],
    colourCues: ['红', '橙', '黄', '绿', '蓝', '紫', '粉', '棕', '黑', '白', '灰', '金', '银', '色', '彩'],
    settings: ['安静简洁的背景', '主体后方柔和的空气感', '衬托主体的简单环境'],
    lenses: ['浅景深，主体清晰', '平视视角，50毫米镜头', '柔和的广角透视'],
    actions: ['细微而自然的动作', '微风轻拂画面', '主体缓慢而逼真的动作'],
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
    imageDetail: '풍부한 디테일, 균형 잡힌 구도',
    cameraMoves: ['느린 돌리 인, 눈높이', '부드러운 트래킹 숏, 눈높이', '완만한 크레인 업, 광각'],
    motion: '안정적이고 부드러운 움직임',
    shotLength: (seconds) => `${seconds}초 길이의 숏`,
    lighting: ['부드러운 자연광', '따뜻한 황금빛 햇살', '흐린 하늘의 확산광', '블루아워의 차가운 빛'],
    lightCues: ['빛-', '조명-', '햇-', '태양-', '해질-', '노을-', '일몰-', '일출-', '새벽-', '황혼-', '밤-', '달빛-', '정오-', '아침-', '저녁-', '네온-',
      '그림자-', '어둠-', '어두-', '촛불-', '램프-'],
    palettes: ['조화로운 자연스러운 색감', '차분한 어스 톤 팔레트', '선명하면서도 균형 잡힌 색감'],
    colourCues: ['빨-', '주황-', '노란-', '노랑-', '초록-', '녹색-', '파란-', '파랑-', '푸른-', '보라-', '분홍-', '핑크-', '갈색-', '검은-', '검정-', '흰-',
      '하얀-', '회색-', '금빛-', '은빛-', '색-'],
    settings: ['차분하고 깔끔한 배경', '피사체 뒤로 펼쳐지는 부드러운 공기감', '피사체를 돋보이게 하는 단순한 배경'],
    lenses: ['얕은 피사계 심도, 선명한 피사체', '눈높이 시점, 50mm 렌즈', '부드러운 광각 원근감'],
    actions: ['미묘하고 자연스러운 움직임', '장면을 스치는 산들바람', '피사체의 느리고 생생한 움직임'],
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
    imageDetail: 'богатая детализация, сбалансированная композиция',
    cameraMoves: ['медленный наезд камеры, на уровне глаз', 'плавная следящая съёмка, на уровне глаз', 'мягкий подъём на кране, общий план'],
    motion: 'ровное, плавное движение',
    shotLength: (seconds) => `кадр длительностью ${seconds} с`,
    lighting: ['мягкий естественный свет', 'тёплый свет золотого часа', 'рассеянный свет пасмурного неба', 'холодный свет синего часа'],
    lightCues: ['свет-', 'освещ-', 'солн-', 'закат-', 'рассвет-', 'зар-', 'сумер-', 'ноч-', 'лун-', 'полдень-', 'полдн-',
      'утр-', 'вечер-', 'неон-', 'тен-', 'тён-', 'темн-', 'тёмн-', 'свеч-', 'ламп-', 'сиян-'],
    palettes: ['гармоничные естественные цвета', 'приглушённая землистая палитра', 'яркие, но сбалансированные цвета'],
    colourCues: ['красн-', 'оранж-', 'жёлт-', 'желт-', 'зелён-', 'зелен-', 'син-', 'голуб-', 'фиолет-', 'розов-', 'коричн-',
      'чёрн-', 'черн-', 'бел-', 'сер-', 'золот-', 'серебр-', 'цвет-', 'пастел-'],
    settings: ['спокойный лаконичный фон', 'мягкая воздушная глубина за объектом', 'простое окружение, подчёркивающее объект'],
    lenses: ['малая глубина резкости, объект в фокусе', 'съёмка на уровне глаз, объектив 50 мм', 'мягкая широкоугольная перспектива'],
    actions: ['едва заметное естественное движение', 'лёгкий ветерок оживляет сцену', 'медленное реалистичное движение объекта'],
  },
};
