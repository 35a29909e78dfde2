/**
 * A small, deterministic language guess for prompts: the writing system first (kana, hangul, han,
 * cyrillic), then function words, common prompt subjects and diacritics for Latin-script languages. It answers `unknown`
 * rather than guess, because the prompt rewriter must never put words of the wrong language into a
 * client's prompt.
 */
export const KNOWN_LANGUAGES = ['en', 'fr', 'es', 'de', 'it', 'pt', 'ja', 'zh', 'ko', 'ru'] as const;
export type KnownLanguage = (typeof KNOWN_LANGUAGES)[number];
export type DetectedLanguage = KnownLanguage | 'unknown';

type LatinLanguage = 'en' | 'fr' | 'es' | 'de' | 'it' | 'pt';

const FUNCTION_WORDS: Record<LatinLanguage, string[]> = {
  en: ['the', 'a', 'an', 'and', 'of', 'in', 'on', 'with', 'at', 'is', 'are', 'under', 'over', 'from', 'by', 'for',
    'to', 'its', 'his', 'her', 'their', 'this', 'that', 'into', 'through', 'while', 'near', 'it', 'make', 'more',
    'less', 'add', 'be', 'as', 'than', 'some', 'very', 'who', 'which', 'my', 'your'],
  fr: ['le', 'la', 'les', 'un', 'une', 'des', 'du', 'et', 'dans', 'sur', 'avec', 'sous', 'au', 'aux', 'est', 'en',
    'pour', 'par', 'qui', 'ses', 'son', 'sa', 'près', 'entre', 'vers', "l'", "d'", "qu'", 'plus', 'moins', 'rends',
    'ajoute', 'très', 'ce', 'cette', 'mon', 'ton', 'leur'],
  es: ['el', 'la', 'los', 'las', 'un', 'una', 'unos', 'unas', 'y', 'en', 'con', 'sobre', 'bajo', 'del', 'al', 'es',
    'por', 'para', 'que', 'su', 'sus', 'entre', 'hacia', 'muy', 'más', 'menos', 'hazlo', 'añade', 'este', 'esta', 'mi'],
  de: ['der', 'die', 'das', 'ein', 'eine', 'einem', 'einen', 'einer', 'und', 'mit', 'auf', 'unter', 'über', 'im',
    'in', 'ist', 'von', 'zu', 'den', 'dem', 'des', 'bei', 'nach', 'vor', 'sich', 'mehr', 'weniger', 'mach', 'sehr',
    'dieser', 'diese', 'mein'],
  it: ['il', 'lo', 'la', 'gli', 'le', 'un', 'una', 'uno', 'e', 'con', 'su', 'sotto', 'nel', 'nella', 'del', 'della',
    'di', 'è', 'per', 'tra', 'fra', 'che', 'sul', 'sulla', 'dei', 'delle', "l'", "dell'", "un'", 'più', 'meno',
    'rendi', 'molto', 'questo', 'questa', 'mio'],
  pt: ['o', 'a', 'os', 'as', 'um', 'uma', 'e', 'com', 'em', 'no', 'na', 'nos', 'nas', 'sobre', 'sob', 'do', 'da',
    'dos', 'das', 'é', 'para', 'por', 'que', 'seu', 'sua', 'entre', 'ao', 'mais', 'menos', 'torne', 'muito', 'este',
    'esta', 'meu'],
};

/**
 * Common subjects of image and video prompts. A short prompt ("cat", "Katze", "un gatto") has few or no
 * function words; these carry it. A word several languages share counts for none of them in particular
 * ("gato" is Spanish and Portuguese: a one-word "gato" stays unknown).
 */
const SUBJECT_WORDS: Record<LatinLanguage, string[]> = {
  en: ['cat', 'cats', 'kitten', 'dog', 'dogs', 'puppy', 'horse', 'bird', 'birds', 'fox', 'wolf', 'bear', 'owl', 'fish', 'whale',
    'butterfly', 'flower', 'flowers', 'tree', 'trees', 'forest', 'mountain', 'mountains', 'river', 'lake', 'ocean', 'sea', 'beach',
    'island', 'desert', 'sky', 'clouds', 'sunset', 'sunrise', 'night', 'city', 'street', 'town', 'castle', 'house', 'bridge',
    'lighthouse', 'garden', 'field', 'meadow', 'waterfall', 'snow', 'rain', 'storm', 'winter', 'summer', 'autumn', 'woman', 'man',
    'girl', 'boy', 'child', 'children', 'old', 'young', 'face', 'car', 'ship', 'boat', 'bicycle', 'knight', 'king', 'queen',
    'princess', 'wizard', 'cup', 'coffee', 'tea', 'book', 'chair', 'window', 'door', 'kitchen', 'room', 'cake', 'apple', 'food',
    'landscape', 'spaceship', 'moon', 'star', 'stars', 'beautiful', 'cute', 'small', 'big', 'red', 'blue', 'green', 'yellow',
    'black', 'white', 'dark', 'sleeping', 'running', 'flying', 'walking', 'dancing', 'sitting', 'standing'],
  fr: ['chat', 'chats', 'chaton', 'chien', 'chiens', 'cheval', 'oiseau', 'oiseaux', 'renard', 'loup', 'ours', 'hibou', 'chouette',
    'poisson', 'baleine', 'papillon', 'fleur', 'fleurs', 'arbre', 'arbres', 'forêt', 'montagne', 'montagnes', 'rivière', 'lac',
    'océan', 'mer', 'plage', 'île', 'désert', 'ciel', 'nuages', 'soleil', 'nuit', 'ville', 'rue', 'château', 'maison', 'pont',
    'phare', 'jardin', 'champ', 'prairie', 'cascade', 'neige', 'pluie', 'orage', 'tempête', 'hiver', 'été', 'automne', 'printemps',
    'femme', 'homme', 'fille', 'garçon', 'enfant', 'enfants', 'vieux', 'vieille', 'jeune', 'visage', 'voiture', 'bateau', 'vélo',
    'chevalier', 'roi', 'reine', 'princesse', 'sorcier', 'magicien', 'tasse', 'café', 'thé', 'livre', 'chaise', 'fenêtre', 'porte',
    'cuisine', 'chambre', 'gâteau', 'pomme', 'paysage', 'vaisseau', 'lune', 'étoile', 'étoiles', 'beau', 'belle', 'mignon',
    'petit', 'petite', 'grand', 'grande', 'rouge', 'bleu', 'vert', 'jaune', 'noir', 'blanc', 'sombre', 'dormant', 'courant'],
  es: ['gato', 'gatos', 'gatito', 'perro', 'perros', 'perrito', 'caballo', 'pájaro', 'zorro', 'lobo', 'oso', 'búho', 'pez',
    'ballena', 'mariposa', 'flor', 'flores', 'árbol', 'árboles', 'bosque', 'montaña', 'montañas', 'río', 'lago', 'océano', 'mar',
    'playa', 'isla', 'desierto', 'cielo', 'nubes', 'atardecer', 'amanecer', 'noche', 'ciudad', 'calle', 'pueblo', 'castillo',
    'casa', 'puente', 'faro', 'jardín', 'campo', 'pradera', 'cascada', 'nieve', 'lluvia', 'tormenta', 'invierno', 'verano', 'otoño',
    'primavera', 'mujer', 'hombre', 'niña', 'niño', 'niños', 'viejo', 'joven', 'retrato', 'cara', 'coche', 'tren', 'barco',
    'bicicleta', 'caballero', 'rey', 'reina', 'princesa', 'mago', 'taza', 'café', 'té', 'libro', 'silla', 'mesa', 'ventana',
    'puerta', 'cocina', 'habitación', 'pastel', 'manzana', 'paisaje', 'nave', 'planeta', 'luna', 'estrella', 'estrellas',
    'hermoso', 'hermosa', 'bonito', 'bonita', 'pequeño', 'pequeña', 'grande', 'rojo', 'azul', 'verde', 'amarillo', 'negro',
    'blanco', 'oscuro', 'durmiendo', 'corriendo', 'volando'],
  de: ['katze', 'katzen', 'kätzchen', 'hund', 'hunde', 'welpe', 'pferd', 'vogel', 'vögel', 'fuchs', 'bär', 'löwe', 'eule', 'fisch',
    'wal', 'schmetterling', 'blume', 'blumen', 'baum', 'bäume', 'wald', 'berg', 'berge', 'fluss', 'meer', 'strand', 'insel',
    'wüste', 'himmel', 'wolken', 'sonnenuntergang', 'sonnenaufgang', 'nacht', 'stadt', 'straße', 'dorf', 'schloss', 'burg', 'haus',
    'brücke', 'leuchtturm', 'garten', 'feld', 'wiese', 'wasserfall', 'schnee', 'regen', 'sturm', 'gewitter', 'sommer', 'herbst',
    'frühling', 'frau', 'mann', 'mädchen', 'junge', 'kind', 'kinder', 'alte', 'alter', 'jung', 'gesicht', 'auto', 'zug', 'schiff',
    'boot', 'fahrrad', 'roboter', 'drache', 'ritter', 'könig', 'königin', 'prinzessin', 'zauberer', 'tasse', 'kaffee', 'buch',
    'stuhl', 'tisch', 'fenster', 'tür', 'küche', 'zimmer', 'kuchen', 'apfel', 'landschaft', 'raumschiff', 'mond', 'stern', 'sterne',
    'schön', 'schöne', 'klein', 'kleine', 'groß', 'große', 'rot', 'blau', 'grün', 'gelb', 'schwarz', 'weiß', 'dunkel', 'schlafend',
    'laufend'],
  it: ['gatto', 'gatti', 'gattino', 'cane', 'cani', 'cucciolo', 'cavallo', 'uccello', 'volpe', 'lupo', 'orso', 'gufo', 'pesce',
    'balena', 'farfalla', 'fiore', 'fiori', 'albero', 'alberi', 'foresta', 'bosco', 'montagna', 'montagne', 'fiume', 'lago',
    'oceano', 'mare', 'spiaggia', 'isola', 'deserto', 'cielo', 'nuvole', 'tramonto', 'alba', 'notte', 'città', 'strada',
    'villaggio', 'castello', 'casa', 'ponte', 'faro', 'giardino', 'campo', 'prato', 'cascata', 'neve', 'pioggia', 'tempesta',
    'inverno', 'estate', 'autunno', 'primavera', 'donna', 'uomo', 'ragazza', 'ragazzo', 'bambino', 'bambina', 'bambini', 'vecchio',
    'giovane', 'ritratto', 'viso', 'volto', 'macchina', 'treno', 'nave', 'barca', 'bicicletta', 'cavaliere', 'regina', 'principessa',
    'mago', 'tazza', 'caffè', 'tè', 'libro', 'sedia', 'tavolo', 'finestra', 'porta', 'cucina', 'stanza', 'torta', 'mela',
    'paesaggio', 'astronave', 'pianeta', 'luna', 'stella', 'stelle', 'bello', 'bella', 'carino', 'piccolo', 'piccola', 'grande',
    'rosso', 'blu', 'verde', 'giallo', 'nero', 'bianco', 'scuro', 'dorme', 'corre'],
  pt: ['gato', 'gatos', 'gatinho', 'cachorro', 'cão', 'cães', 'cavalo', 'pássaro', 'raposa', 'lobo', 'urso', 'coruja', 'peixe',
    'baleia', 'borboleta', 'flor', 'flores', 'árvore', 'árvores', 'floresta', 'montanha', 'montanhas', 'rio', 'lago', 'oceano',
    'mar', 'praia', 'ilha', 'deserto', 'céu', 'nuvens', 'noite', 'cidade', 'rua', 'aldeia', 'castelo', 'casa', 'ponte', 'farol',
    'jardim', 'campo', 'prado', 'cachoeira', 'neve', 'chuva', 'tempestade', 'inverno', 'verão', 'outono', 'primavera', 'mulher',
    'homem', 'menina', 'menino', 'criança', 'crianças', 'velho', 'jovem', 'retrato', 'rosto', 'carro', 'trem', 'comboio', 'navio',
    'barco', 'bicicleta', 'cavaleiro', 'rei', 'rainha', 'princesa', 'mago', 'xícara', 'chávena', 'café', 'chá', 'livro', 'cadeira',
    'mesa', 'janela', 'porta', 'cozinha', 'quarto', 'bolo', 'maçã', 'paisagem', 'nave', 'planeta', 'lua', 'estrela', 'estrelas',
    'bonito', 'bonita', 'lindo', 'linda', 'pequeno', 'pequena', 'grande', 'vermelho', 'azul', 'verde', 'amarelo', 'preto',
    'branco', 'escuro', 'dormindo', 'correndo', 'voando'],
};

/** Characters that (nearly) only one Latin-script language uses, with their weight. */
const DIACRITIC_HINTS: Array<{ pattern: RegExp; language: LatinLanguage; weight: number }> = [
  { pattern: /[ñ¿¡]/g, language: 'es', weight: 2 },
  { pattern: /ß/g, language: 'de', weight: 2 },
  { pattern: /[äöü]/g, language: 'de', weight: 1 },
  { pattern: /[ãõ]|ção|ções/g, language: 'pt', weight: 2 },
  { pattern: /[œ]|[êîôû]|ç[aou]/g, language: 'fr', weight: 1 },
  { pattern: /[èàù]/g, language: 'fr', weight: 0.5 },
  { pattern: /[òì]/g, language: 'it', weight: 1 },
  { pattern: /[èàù]/g, language: 'it', weight: 0.5 },
];

/** Each known word counts 1 split among the languages that share it ("la" is fr, es and it). */
const WORD_WEIGHTS: Map<string, Array<{ language: LatinLanguage; weight: number }>> = buildWordWeights();

export function detectLanguage(text: string): DetectedLanguage {
  const scripts = countScripts(text);
  const letters = scripts.latin + scripts.cyrillic + scripts.kana + scripts.hangul + scripts.han + scripts.other;
  if (letters === 0) return 'unknown';
  if (scripts.kana > 0 && scripts.kana + scripts.han >= letters * 0.3) return 'ja';
  if (scripts.hangul >= letters * 0.3) return 'ko';
  if (scripts.han >= letters * 0.3) return 'zh';
  if (scripts.cyrillic >= letters * 0.5) return /[іїєґў]/i.test(text) ? 'unknown' : 'ru';
  if (scripts.latin < letters * 0.5) return 'unknown';
  return detectLatinLanguage(text);
}

function detectLatinLanguage(text: string): DetectedLanguage {
  const lower = text.toLowerCase();
  const scores: Record<LatinLanguage, number> = { en: 0, fr: 0, es: 0, de: 0, it: 0, pt: 0 };
  for (const token of tokens(lower)) {
    for (const { language, weight } of WORD_WEIGHTS.get(token) ?? []) scores[language] += weight;
  }
  for (const hint of DIACRITIC_HINTS) {
    const matches = lower.match(hint.pattern)?.length ?? 0;
    scores[hint.language] += Math.min(3, matches) * hint.weight;
  }
  const ranked = (Object.entries(scores) as Array<[LatinLanguage, number]>).sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  // A tie (for example "a cat": "a" is en, es, it and pt) is not evidence of anything.
  if (best[1] < 0.5 || best[1] - second[1] < 0.25) return 'unknown';
  return best[0];
}

/** Words, with French/Italian elisions (`l'`, `dell'`) split off as tokens of their own. */
function tokens(text: string): string[] {
  const result: string[] = [];
  for (const raw of text.split(/[^\p{L}'’]+/u)) {
    const word = raw.replace(/’/g, "'");
    if (!word) continue;
    const elision = /^([\p{L}]{1,4}')(.+)$/u.exec(word);
    if (elision) {
      result.push(elision[1], elision[2]);
    } else {
      result.push(word.replace(/'+$/, ''));
    }
  }
  return result;
}

interface ScriptCounts {
  latin: number;
  cyrillic: number;
  kana: number;
  hangul: number;
  han: number;
  other: number;
}

function countScripts(text: string): ScriptCounts {
  const counts: ScriptCounts = { latin: 0, cyrillic: 0, kana: 0, hangul: 0, han: 0, other: 0 };
  for (const character of text) {
    if (/\p{Script=Latin}/u.test(character)) counts.latin += 1;
    else if (/\p{Script=Cyrillic}/u.test(character)) counts.cyrillic += 1;
    else if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(character)) counts.kana += 1;
    else if (/\p{Script=Hangul}/u.test(character)) counts.hangul += 1;
    else if (/\p{Script=Han}/u.test(character)) counts.han += 1;
    else if (/\p{L}/u.test(character)) counts.other += 1;
  }
  return counts;
}

function buildWordWeights(): Map<string, Array<{ language: LatinLanguage; weight: number }>> {
  const owners = new Map<string, LatinLanguage[]>();
  for (const table of [FUNCTION_WORDS, SUBJECT_WORDS]) {
    for (const [language, words] of Object.entries(table) as Array<[LatinLanguage, string[]]>) {
      for (const word of words) {
        const languages = owners.get(word) ?? [];
        if (!languages.includes(language)) owners.set(word, [...languages, language]);
      }
    }
  }
  const weights = new Map<string, Array<{ language: LatinLanguage; weight: number }>>();
  for (const [word, languages] of owners) {
    weights.set(word, languages.map((language) => ({ language, weight: 1 / languages.length })));
  }
  return weights;
}
