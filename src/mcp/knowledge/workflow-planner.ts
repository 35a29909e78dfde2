/**
 * Plans a goal ("talking head from a photo") as a chain of operations, reasoning over the manifests:
 *   1. the media the user already has, read from the goal ("from a photo" -> an image; text is always at hand);
 *   2. the final operation: a knowledge workflow whose tags the goal contains, else the operation whose summary
 *      shares most words with the goal among those producing the medium the goal names;
 *   3. backwards from it: every required media input the user lacks is made by an operation producing that
 *      kind from what is at hand (the workflow's `prefer` first, then operations that use the user's own media,
 *      then the cheapest), recursively;
 *   4. each step priced with the kernel's own credit computation for the default model and the workflow's
 *      assumed input.
 * Every choice is written into `reasoning`, so the plan can be checked rather than trusted.
 */
import type { OperationDefinition, OperationRegistry } from '../../kernel/manifests/index.js';
import type { KnowledgeRecord } from './knowledge-registry.js';
import { mediaInputs, producedKind, type MediaInput, type MediaKind } from './media-kinds.js';
import { priceExample } from './price-example.js';

export interface PlannedStep {
  step: number;
  operation: string;
  model: string;
  produces: MediaKind;
  /** Input field -> where its media comes from (`your image`, `step 1 (video_url)`). */
  inputs: Record<string, string>;
  /** Credits for the priced example input, or null when it could not be priced. */
  estimated_credits: number | null;
  priced_input: Record<string, unknown>;
}

export interface WorkflowPlan {
  goal: string;
  workflow: { id: string; title: string; url: string } | null;
  available_media: MediaKind[];
  steps: PlannedStep[];
  estimated_total_credits: number | null;
  reasoning: string[];
}

interface WorkflowHints {
  final_operation?: string;
  prefer: string[];
  assume: Record<string, Record<string, unknown>>;
}

const sourceWords: [RegExp, MediaKind][] = [
  [/\b(photo|picture|image|portrait|selfie|headshot|drawing)s?\b/, 'image'],
  [/\b(video|clip|footage|recording)s?\b/, 'video'],
  [/\b(audio|song|voice ?over|podcast|soundtrack)s?\b/, 'audio'],
];
const targetWords: [RegExp, MediaKind][] = [
  [/\b(video|clip|film|animation|movie|reel)s?\b/, 'video'],
  [/\b(image|picture|photo|illustration|poster|logo)s?\b/, 'image'],
  [/\b(music|song|narration|voice|speech|sound|audio|jingle)s?\b/, 'audio'],
  [/\b(3d|glb|mesh)\b/, '3d_model'],
];
const maxDepth = 3;

export function planWorkflow(goal: string, registry: OperationRegistry, workflows: readonly KnowledgeRecord[]): WorkflowPlan {
  const text = goal.toLowerCase();
  const reasoning: string[] = [];
  // "from a photo", "using my video": media after these words is what the user brings.
  const sourcePart = /\b(?:from|using|with|of|based on|out of)\b(.*)$/.exec(text)?.[1] ?? '';
  const available = new Set<MediaKind>(['text', ...sourceWords.filter(([pattern]) => pattern.test(sourcePart)).map(([, kind]) => kind)]);
  reasoning.push(`Media you bring: ${[...available].join(', ')} (text is always at hand).`);

  const workflow = workflows.find((record) => ((record.metadata.tags as string[] | undefined) ?? []).some((tag) => text.includes(tag.toLowerCase())));
  const hints: WorkflowHints = workflow
    ? { final_operation: workflow.metadata.final_operation as string, prefer: (workflow.metadata.prefer as string[]) ?? [], assume: (workflow.metadata.assume as WorkflowHints['assume']) ?? {} }
    : { prefer: [], assume: {} };
  const candidates = registry.all().filter((definition) => !definition.manifest.deprecated);

  let final: OperationDefinition | undefined;
  if (hints.final_operation) {
    final = registry.get(hints.final_operation);
    reasoning.push(`The goal matches the workflow "${workflow!.title}", which ends with ${hints.final_operation}.`);
  } else {
    const targetPart = text.slice(0, text.length - sourcePart.length);
    const target = targetWords.find(([pattern]) => pattern.test(targetPart))?.[1];
    const pool = candidates.filter((definition) => target === undefined || producedKind(definition.manifest) === target);
    final = [...pool].sort((a, b) => overlap(text, b) - overlap(text, a))[0];
    reasoning.push(target ? `The goal asks for ${target}; of the operations that make it, ${final?.name} shares most words with the goal.` : `No medium named; ${final?.name} shares most words with the goal.`);
  }
  if (!final) return { goal, workflow: null, available_media: [...available], steps: [], estimated_total_credits: null, reasoning: [...reasoning, 'No operation fits this goal.'] };

  const steps: PlannedStep[] = [];
  const planner = { registry, candidates, available, hints, goal: text, steps, reasoning };
  addStep(planner, final, 0);
  const credits = steps.map((step) => step.estimated_credits);
  const total = credits.every((value): value is number => value !== null) ? credits.reduce((sum, value) => sum + value, 0) : null;
  return {
    goal,
    workflow: workflow ? { id: workflow.id, title: workflow.title, url: workflow.url } : null,
    available_media: [...available],
    steps,
    estimated_total_credits: total,
    reasoning,
  };
}

interface Planner {
  registry: OperationRegistry;
  candidates: OperationDefinition[];
  available: Set<MediaKind>;
  hints: WorkflowHints;
  goal: string;
  steps: PlannedStep[];
  reasoning: string[];
}

/** Adds the steps that make this operation's missing media, then the operation itself; returns its step. */
function addStep(planner: Planner, definition: OperationDefinition, depth: number): PlannedStep {
  const inputs: Record<string, string> = {};
  for (const media of mediaInputs(definition.manifest)) {
    const own = media.kinds.find((kind) => kind !== 'text' && planner.available.has(kind));
    if (own && (media.required || !Object.values(inputs).includes(`your ${own}`))) {
      inputs[media.field] = `your ${own}`;
      continue;
    }
    if (!media.required) continue;
    const producer = chooseProducer(planner, media, definition, depth);
    if (!producer) {
      planner.reasoning.push(`${definition.name} needs ${media.kinds.join(' or ')} in ${media.field}, and nothing at hand makes it: bring one.`);
      inputs[media.field] = `your ${media.kinds[0]}`;
      continue;
    }
    const made = addStep(planner, producer, depth + 1);
    const field = outputUrlField(producer);
    inputs[media.field] = `step ${made.step} (${field})`;
  }
  const assumed = planner.hints.assume[definition.name] ?? {};
  const { credits, input, model } = priceExample(definition, { ...assumed }, Object.keys(inputs));
  const step: PlannedStep = {
    step: planner.steps.length + 1,
    operation: definition.name,
    model,
    produces: producedKind(definition.manifest),
    inputs,
    estimated_credits: credits,
    priced_input: input,
  };
  planner.steps.push(step);
  return step;
}

function chooseProducer(planner: Planner, media: MediaInput, consumer: OperationDefinition, depth: number): OperationDefinition | undefined {
  if (depth >= maxDepth) return undefined;
  const makers = planner.candidates.filter((definition) => {
    if (definition === consumer || !media.kinds.includes(producedKind(definition.manifest))) return false;
    // A maker must not itself need the medium it makes (an upscaler needs the video it would make).
    return !mediaInputs(definition.manifest).some((input) => input.required && input.kinds.includes(producedKind(definition.manifest)) && !planner.available.has(producedKind(definition.manifest)));
  });
  const score = (definition: OperationDefinition) =>
    (planner.hints.prefer.includes(definition.name) ? 100 : 0) +
    (mediaInputs(definition.manifest).some((input) => input.kinds.some((kind) => kind !== 'text' && planner.available.has(kind))) ? 10 : 0) +
    overlap(planner.goal, definition);
  const ranked = [...makers].sort((a, b) => score(b) - score(a) || defaultCredits(a) - defaultCredits(b));
  const choice = ranked[0];
  if (choice) {
    const why = planner.hints.prefer.includes(choice.name) ? 'the workflow prefers it' : score(choice) >= 10 ? 'it uses media you bring' : 'it is the cheapest maker';
    planner.reasoning.push(`${consumer.name} needs ${media.kinds.join(' or ')} in ${media.field}: ${choice.name} makes it (${why}; other makers: ${ranked.slice(1).map((definition) => definition.name).join(', ') || 'none'}).`);
  }
  return choice;
}

/** The output field carrying the hosted medium (`video_url`, `audio_url`, ...). */
function outputUrlField(definition: OperationDefinition): string {
  const properties = Object.keys((definition.manifest.output.properties ?? {}) as object);
  const kind = producedKind(definition.manifest);
  const prefix = kind === '3d_model' ? 'model' : kind;
  return properties.find((name) => name === `${prefix}_url`) ?? properties.find((name) => name.endsWith('_url')) ?? 'output';
}

function defaultCredits(definition: OperationDefinition): number {
  return priceExample(definition, {}, []).credits ?? Number.POSITIVE_INFINITY;
}

/** Words of the goal that appear in the operation's name or summary (words of 4+ letters). */
function overlap(goal: string, definition: OperationDefinition): number {
  const haystack = `${definition.name} ${definition.manifest.summary}`.toLowerCase();
  return goal.split(/[^a-z0-9]+/).filter((word) => word.length >= 4 && haystack.includes(word)).length;
}
