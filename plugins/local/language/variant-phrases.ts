/**
 * What the offline variant enhancer (prompt.enhance.variant) changes from one variant to the next, per language:
 * the light (every strength), the colour palette (moderate and strong) and the mood (strong). Each list has four
 * entries, one per possible variant, so no two variants of a request share a cue. Every light cue names a light
 * and every palette cue a colour in words the prompt rewriter recognises (`lightCues`, `colourCues` in
 * phrase-tables.ts), so the rewriter does not add a light or a palette of its own beside them. The client's words
 * are never translated; these phrases only add cues in the prompt's language.
 *
 * For a prompt in a language without a table, the cues are numbers with units every language reads (colour
 * temperature in kelvin, focal length in millimetres, exposure in stops), so no foreign word is injected; a
 * palette has no such unit, so the focal length varies in its place.
 */
import type { KnownLanguage } from './detect-language.js';

export type VariationAxis = 'light' | 'palette' | 'mood';

export type VariantCues = Record<VariationAxis, readonly [string, string, string, string]>;

export const VARIANT_CUES: Record<KnownLanguage, VariantCues> = {
  en: {
    light: ['warm golden-hour light', 'soft overcast light', 'night scene under warm lamplight', 'crisp cool morning light'],
    palette: ['muted pastel colours', 'rich saturated colours', 'black-and-white monochrome', 'warm earthy colours'],
    mood: ['calm and quiet mood', 'tense and dramatic mood', 'playful and lively mood', 'nostalgic and wistful mood'],
  },
  fr: {
    light: ['lumière dorée de fin de journée', "lumière douce d'un ciel couvert", 'scène de nuit sous une lumière chaude de lampes', 'lumière fraîche et nette du matin'],
    palette: ['couleurs pastel douces', 'couleurs riches et saturées', 'noir et blanc monochrome', 'couleurs chaudes et terreuses'],
    mood: ['ambiance calme et paisible', 'ambiance tendue et dramatique', 'ambiance ludique et animée', 'ambiance nostalgique et rêveuse'],
  },
  es: {
    light: ['luz cálida de la hora dorada', 'luz suave de cielo nublado', 'escena nocturna bajo luz cálida de lámparas', 'luz fresca y nítida de la mañana'],
    palette: ['colores pastel suaves', 'colores ricos y saturados', 'blanco y negro monocromo', 'colores cálidos y terrosos'],
    mood: ['ambiente tranquilo y sereno', 'ambiente tenso y dramático', 'ambiente alegre y animado', 'ambiente nostálgico y melancólico'],
  },
  de: {
    light: ['warmes Licht der goldenen Stunde', 'weiches Licht bei bedecktem Himmel', 'Nachtszene unter warmem Lampenlicht', 'klares kühles Morgenlicht'],
    palette: ['sanfte Pastellfarben', 'satte kräftige Farben', 'monochromes Schwarzweiß', 'warme erdige Farben'],
    mood: ['ruhige und stille Stimmung', 'angespannte und dramatische Stimmung', 'verspielte und lebhafte Stimmung', 'nostalgische und wehmütige Stimmung'],
  },
  it: {
    light: ["luce calda dell'ora dorata", 'luce morbida di cielo coperto', 'scena notturna sotto una calda luce di lampade', 'luce fresca e nitida del mattino'],
    palette: ['colori pastello tenui', 'colori ricchi e saturi', 'bianco e nero monocromatico', 'colori caldi e terrosi'],
    mood: ['atmosfera calma e quieta', 'atmosfera tesa e drammatica', 'atmosfera giocosa e vivace', 'atmosfera nostalgica e malinconica'],
  },
  pt: {
    light: ['luz quente da hora dourada', 'luz suave de céu nublado', 'cena noturna sob luz quente de candeeiros', 'luz fresca e nítida da manhã'],
    palette: ['cores pastel suaves', 'cores ricas e saturadas', 'preto e branco monocromático', 'cores quentes e terrosas'],
    mood: ['ambiente calmo e sereno', 'ambiente tenso e dramático', 'ambiente alegre e animado', 'ambiente nostálgico e melancólico'],
  },
  ja: {
    light: ['暖かなゴールデンアワーの光', '曇り空の柔らかな光', '温かなランプの灯りに照らされた夜景', '澄んだ涼しい朝の光'],
    palette: ['淡いパステルカラー', '鮮やかで濃い色彩', '白黒のモノクロ', '温かみのある土の色'],
    mood: ['穏やかで静かな雰囲気', '緊張感のあるドラマチックな雰囲気', '遊び心のある生き生きとした雰囲気', '懐かしく切ない雰囲気'],
  },
  zh: {
    light: ['温暖的黄金时刻光线', '阴天柔和的光线', '暖色灯光下的夜景', '清爽明亮的晨光'],
    palette: ['柔和的粉彩色调', '浓郁饱和的色彩', '黑白单色', '温暖的大地色系'],
    mood: ['平静安宁的氛围', '紧张而富有戏剧性的氛围', '活泼生动的氛围', '怀旧而伤感的氛围'],
  },
  ko: {
    light: ['따뜻한 골든아워 빛', '흐린 하늘의 부드러운 빛', '따뜻한 조명 아래의 야경', '맑고 서늘한 아침 빛'],
    palette: ['부드러운 파스텔 색감', '짙고 선명한 색감', '흑백의 모노톤 색감', '따뜻한 흙빛 색감'],
    mood: ['차분하고 고요한 분위기', '긴장감 있는 극적인 분위기', '경쾌하고 생기 있는 분위기', '향수를 자아내는 아련한 분위기'],
  },
  ru: {
    light: ['тёплый свет золотого часа', 'мягкий свет пасмурного неба', 'ночная сцена в тёплом свете ламп', 'чистый прохладный утренний свет'],
    palette: ['мягкие пастельные цвета', 'насыщенные яркие цвета', 'чёрно-белая монохромная гамма', 'тёплые землистые цвета'],
    mood: ['спокойное и тихое настроение', 'напряжённое и драматичное настроение', 'игривое и живое настроение', 'ностальгическое и грустное настроение'],
  },
};

/** Cues in units, for prompts in a language without a table. */
export const UNIT_CUES: VariantCues = {
  light: ['3200 K', '4300 K', '5600 K', '7500 K'],
  palette: ['24 mm', '35 mm', '50 mm', '85 mm'],
  mood: ['−1 EV', '+1 EV', '−2 EV', '+2 EV'],
};
