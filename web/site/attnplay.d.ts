// attnplay.d.ts — TypeScript declarations of Attention Playground's public JavaScript surface, served with the site
// beside the scripts it describes:
//   - window.attnplay, the page's API (attnplay-api.js);
//   - the <attention-playground> element (attention-playground.js): attributes, properties, methods, events;
//   - the postMessage API of a page in a frame (attnplay-embed.js): commands, replies, events.
// A host page references it with `/// <reference path="attnplay.d.ts" />` (or lists it in its tsconfig "files").
// It is a script, not a module: everything is global, under the namespace Attnplay, plus the additions to the DOM's
// own maps (Window, HTMLElementTagNameMap, CustomElementRegistry, DocumentEventMap).
//
// Only what the code does is declared. tests/types/ holds it to that: the implementation files are type-checked
// against it (// @ts-check), and a usage file and a file of misuses are compiled with the real compiler
// (docs/dev/types.md).

declare namespace Attnplay {
  // ---- the state (getState, setState, share links) --------------------------------------------------------------
  // The keys are those of python/attnplay/state_schema.json (the binary's `attnplay schema`), their ranges there.

  /** The built-in lessons' ids (data/lessons/). A teacher's lesson file opened with loadLesson adds its own id. */
  type BuiltinLessonId =
    | 'why-attention' | 'qkv' | 'dot-product' | 'softmax' | 'entropy' | 'why-sqrt-dk' | 'saturation' | 'numerics'
    | 'masks' | 'heads' | 'positions' | 'scoring' | 'by-hand' | 'not-explanation';
  // `string & {}` keeps the built-in ids offered by editors while any teacher's id is still accepted.
  type LessonId = BuiltinLessonId | (string & {});

  /** The panels' keys: the `panels` state key, the embed's `panels=` list, `attnplay ids`. */
  type PanelKey =
    | 'controls' | 'embeddings' | 'pipeline' | 'heatmap' | 'saturation' | 'variance' | 'explain' | 'share' | 'masks'
    | 'heads' | 'positional' | 'numerics' | 'cross' | 'lesson' | 'help' | 'worksheet' | 'learn' | 'builder';

  /** The whole state, as getState() answers it: every key is present. */
  /** The built-in languages, the pseudo-locale, or a translator's catalog's tag (docs/dev/languages.md). */
  type LanguageTag = 'en' | 'hi-Latn' | 'en-XA' | (string & {});

  interface State {
    /** The state format's version (read only). */
    version: 1;
    /** "explicit" with a preset's or an imported scenario's matrices. */
    mode: 'random' | 'explicit';
    /** Tokens split at spaces (at most 16384 bytes). */
    sentence: string;
    /** The sentence's tokens (read only). */
    tokens: string[];
    /** 2…64. In explicit mode the width the matrices compute with; setState accepts it only unchanged. */
    d_model: number;
    /** 1…1024 (explicit mode: as d_model). */
    d_k: number;
    /** 1…64 (explicit mode: as d_model). */
    d_v: number;
    /** An integer from 0. */
    seed: number;
    projections: 'seeded' | 'identity';
    /** tokens × d_model numbers; [] = the seeded ones. */
    embeddings: number[][];
    /** Divide the scores by √d_k. */
    scale: boolean;
    /** 0…1e6. */
    temperature: number;
    mask: 'none' | 'causal';
    /** One boolean per token; [] = none. */
    key_padding: boolean[];
    /** tokens × tokens of 0/1 (1 = blocked), or null. */
    mask_cells: Array<Array<0 | 1>> | null;
    /** 1…256. */
    heads: number;
    positional_encoding: 'none' | 'sinusoidal';
    /** A preset's id, applied before the other keys; "" = none. */
    preset: string;
    /** 0…4095. */
    selected_row: number;
    /** The embedding plane's axes, 0…63. */
    plane_x: number;
    plane_y: number;
    theme: 'dark' | 'light';
    /** 0.5…3. */
    text_scale: number;
    /** A language tag the page has: 'en', 'hi-Latn', a translator's catalog's ('de'), or the pseudo-locale 'en-XA'. */
    lang: LanguageTag;
    /** "row": each row coloured from 0 to its largest weight. */
    heatmap_scale: 'absolute' | 'row';
    /** 1…100: the Numerics panel's factor on the raw logits. */
    numerics_multiplier: number;
    /** Which panels are open. */
    panels: Record<PanelKey, boolean>;
    /** The encoder–decoder example. */
    cross: { states: 'note' | 'seeded'; step: 0 | 1 | 2 | 3 };
    /** The CLI's scenario (its schema is the CLI's); setting it switches to explicit mode. */
    scenario: { [key: string]: unknown };
    /** The worksheet's exercise: "exercise-<number>" or a note example's id (at most 64 characters). */
    exercise: string;
    /** Learn mode. `settings` are the trainer's (their keys are Learn mode's, not fixed here). */
    learn: { settings: { [key: string]: unknown }; playing: boolean; speed: number };
    /** The open lesson and step (1…64), null in free play. */
    lesson: { id: LessonId; step: number } | null;
  }

  /**
   * What setState takes: any of the keys, objects among them in part (panels, cross, learn). The read-only keys are
   * accepted as echoes, so setState(await getState()) always succeeds and changes nothing.
   */
  type StateUpdate = Partial<Omit<State, 'panels' | 'cross' | 'learn'>> & {
    panels?: Partial<Record<PanelKey, boolean>>;
    cross?: Partial<State['cross']>;
    learn?: Partial<State['learn']>;
  };

  // ---- answers ---------------------------------------------------------------------------------------------------

  /** How most calls answer: a refusal is an answer, not a throw (nothing changed; the status line says why). */
  type OkOrError = { ok: true } | { ok: false; error: string };

  /** loadLesson / loadLessonURL: the lesson is open at step 1, or nothing changed. */
  type LoadLessonAnswer =
    | { ok: true; id: string; steps: number; warnings: string[] }
    | { ok: false; error: string; /** the status line's text, when the page parsed the file */ message?: string };

  /** A prediction's right answer: a choice's index, or a number with the distance accepted. */
  type CorrectResponse = number | { number: number; tolerance: number };

  /** A prediction of a lesson, as getResult().lesson.questions lists them. */
  interface LessonQuestion {
    step: number;
    question: string;
    kind: 'choice' | 'numeric';
    /** How many choices (0 for a number). */
    choices: number;
    correct_response: CorrectResponse;
  }

  /** getResult().lesson: the open step as the learner left it. */
  interface ResultLesson {
    id: LessonId;
    step: number;
    steps: number;
    attempts: number;
    correct: boolean;
    missed: boolean;
    answered: boolean;
    goal_met: boolean;
    /** The answer box's unchecked text. */
    draft: string;
    questions: LessonQuestion[];
  }

  /**
   * getResult(): the core's result, the same JSON as the CLI's, plus the app's parts. Only the parts every result has
   * and the lesson's are spelled out; the rest (the CLI's matrices, cross, heads_options, sweep, learn, worksheet:
   * the README's "JavaScript API") are read as unknown.
   */
  interface Result {
    /** Query rows' labels. */
    tokens: string[];
    /** Key columns' labels. */
    key_tokens: string[];
    /** Present while a lesson is open. */
    lesson?: ResultLesson;
    /** Present when the state could not be computed. */
    error?: string;
    [key: string]: unknown;
  }

  /** One frame's time in ms: the model's tick (of which the recomputation), the panels, ImGui's Render, GL, and
   * the page's own work around them. */
  interface FramePhases { frame: number; tick: number; recompute: number; panels: number; render: number; gl: number; around: number }

  /** A rectangle in page CSS pixels. */
  interface Rect { x: number; y: number; w: number; h: number }

  /** A panel's window in page CSS pixels with its vertical scroll (CSS pixels) and one line's height. */
  interface PanelScroll extends Rect { scrollY: number; scrollMaxY: number; lineHeight: number }

  /** Embed mode as read from the page's query string (ids and origins the page accepted). */
  interface EmbedInfo {
    enabled: boolean;
    panels: string[];
    locked: string[];
    hidden: string[];
    origins: string[];
  }

  /** watch(): a cheap change probe. */
  interface Watch {
    /** The state's small fields (as a share link carries them: what differs from the defaults). */
    state: StateUpdate;
    /** Digests of the large fields ("" when absent). */
    parts: { embeddings: string; scenario: string };
    /** The selected row, its largest weight (head 1) and whether that is above 0.95. */
    row: number;
    max_weight: number;
    saturated: boolean;
    /** Why the state could not be computed ("" when it could). */
    error: string;
    /** The status line. */
    status: string;
  }

  /** An answer a course's LMS kept for a question: a choice's index or a number, and the tries it took. */
  interface KeptAnswer { given: number; attempts: number }

  /**
   * An action of the canvas's parallel DOM (attnplay-a11y.js) on the open lesson. The page's own controls send
   * others too (worksheet cells, Learn mode, mask cells, the start view …): their shapes are theirs, not an API.
   */
  type A11yAction =
    | { do: 'next' | 'back' | 'exit' | 'restart' }
    | { do: 'choice'; value: number }
    | { do: 'number'; value: string }
    | { do: string; [key: string]: unknown };

  // ---- events ----------------------------------------------------------------------------------------------------

  /** lesson-step: a step was opened. */
  interface LessonStepDetail { lesson: string; step: number; steps: number }

  /** answer: a prediction was answered (right, wrong, or the last miss). */
  interface PredictionAnswerDetail {
    lesson: string;
    step: number;
    question: string;
    correct: boolean;
    /** No tries left: the answer is shown. */
    missed: boolean;
    /** Which try this was, from 1. */
    attempt: number;
    /** A choice's index, or the number typed. */
    given: number;
    kind: 'choice' | 'numeric';
    correct_response: CorrectResponse;
    /** The question and its choices in the words the learner read, and that language. */
    question_text: string;
    choice_texts: string[];
    lang: LanguageTag;
  }
  /** answer: a "do" task's goal was reached (always correct, no tries). */
  interface TaskDoneDetail {
    lesson: string;
    step: number;
    question: string;
    correct: true;
    kind: 'do';
  }
  type AnswerDetail = PredictionAnswerDetail | TaskDoneDetail;

  /** lesson-complete: Next on the last step. */
  interface LessonCompleteDetail { lesson: string; steps: number; questions: number; right_first: number }

  /** embed-panels: an embed's panels as a lesson step changed them (panel keys). */
  interface EmbedPanelsDetail { panels: string[]; added: string[]; withheld: string[] }

  /** change: which state keys changed (large ones by name only) and the new values of the small ones. */
  interface ChangeDetail { changed: string[]; values: StateUpdate }

  /** saturation: the selected row's largest weight crossed 0.95 (or the row changed while saturated). */
  interface SaturationDetail { saturated: boolean; max_weight: number; row: number }

  /** xapi: a statement the page's LMS adapter made (attnplay-lms.js), as it sent it. */
  interface XapiDetail { statement: { [key: string]: unknown } }

  /** error: the module stopped (crashed), or, on the element, a state, attribute or lesson the page refused. */
  interface ErrorDetail { error: string; crashed?: true }

  /** The events attnplay.onEvent hears, as the app makes them. */
  type PageEvent =
    | ({ type: 'lesson-step' } & LessonStepDetail)
    | ({ type: 'answer' } & PredictionAnswerDetail)
    | ({ type: 'answer' } & TaskDoneDetail)
    | ({ type: 'lesson-complete' } & LessonCompleteDetail)
    | ({ type: 'embed-panels' } & EmbedPanelsDetail)
    /** The learner left the first visit's start view (not forwarded to embedding pages). */
    | { type: 'start-view'; choice: 'lesson' | 'explore' };

  // ---- window.attnplay -------------------------------------------------------------------------------------------

  /**
   * window.attnplay. Every promise-returning call made before `ready`, or after the module stopped, rejects with an
   * Error; otherwise a refusal resolves `{ok: false, error}`. One exception to the answers declared below: a call
   * that needs the module's second half while it cannot be fetched (offline before it arrived) resolves
   * `{ok: false, error}` whatever it usually answers.
   */
  interface HostProtocol {
    events: EmbedEventName[];
    /** Deepest nesting a message's JSON may have. */
    json_depth: number;
    /** Most bytes a JSON text may have. */
    json_bytes: number;
  }

  interface API {
    /** Resolves with the API once the first frames are drawn; rejects when the page cannot start. */
    readonly ready: Promise<API>;
    getState(): Promise<State>;
    /** The state is unchanged on error. Something JSON.stringify cannot serialise resolves {ok: false} too. */
    setState(partial: StateUpdate): Promise<OkOrError>;
    getResult(): Promise<Result>;
    /** Answers kept elsewhere (an LMS) for a lesson, by question id: those steps open answered. */
    keepAnswers(lesson: string, answers: Record<string, KeptAnswer>): Promise<OkOrError>;
    readonly ui: {
      /** The labelled control's rectangle in the last frame, or null; "tooltip": the tooltip's, while one shows. */
      itemRect(label: string): Promise<Rect | null>;
      /** The id of the control with keyboard focus, "" when none has. */
      focused(): Promise<string>;
      /** The text of the tooltip the last frame showed, "" when none shows (Escape dismisses it until the pointer moves). */
      tooltip(): Promise<string>;
      /** A panel (its key or its shown title), or null when it is not drawn. */
      panelScroll(title: string): Promise<PanelScroll | null>;
      /** Where the last frames' time went, in ms, oldest first (at most 600 frames). */
      framePhases(): Promise<FramePhases[]>;
    };
    readonly a11y: {
      /** The parallel DOM's source (open panels, controls, lesson, weights); its shape is that DOM's, not fixed here. */
      description(): Promise<{ [key: string]: unknown }>;
      /** Rings a control on the canvas ("" or nothing = none). Resolves with whether the canvas drew that control in
       *  its last frame (false: no ring there, and the page shows the focus itself). */
      focus(id?: string): Promise<boolean>;
      act(action: A11yAction): Promise<OkOrError>;
    };
    /** Frames run so far (0 before ready). */
    frames(): number;
    /** Of those, the frames painted into the canvas. */
    framesPainted(): number;
    /** The "Copy link" text: this page's address + "#s=1.…". */
    shareURL(): Promise<string>;
    /** Opens a share link's fragment ("#s=1.…") or a lesson link's, as following the link would. */
    openFragment(fragment: string): Promise<OkOrError>;
    /** Imports a scenario (CLI schema) or a full state, as dropping the file does; `name` defaults to import.json. */
    importJSON(text: string, name?: string): Promise<OkOrError>;
    /** A teacher's lesson file (its text), opened at step 1; `name` defaults to lesson.json. */
    loadLesson(text: string, name?: string): Promise<LoadLessonAnswer>;
    /** The same, fetched (this page's origin or one in ?lesson-origins=); a failed fetch resolves {ok: false}. */
    loadLessonURL(url: string): Promise<LoadLessonAnswer>;
    embedInfo(): Promise<EmbedInfo>;
    /** What a host may ask of the page: the events it can subscribe to and the JSON limits a message must keep. */
    hostProtocol(): Promise<HostProtocol>;
    /** The first language of a preference list ("hi-IN,en-US") the page has, as the page chooses from the browser's
     * list; '' when the list names none. */
    preferredLanguage(list: string): Promise<LanguageTag | ''>;
    watch(): Promise<Watch>;
    /** Called after a drawn frame in which the state, result or status changed. Not removable. */
    onChange(fn: () => void): void;
    /** Lesson (and start view) events as they happen. Not removable. */
    onEvent(fn: (event: PageEvent) => void): void;
    /** Forgets this page's saved state and lesson progress and opens the defaults. */
    reset(): Promise<OkOrError>;
  }

  // ---- postMessage (a host page and the playground in its frame) ---------------------------------------------------

  /** A message's id: echoed in the reply (omitted when the message had none, or one not valid). */
  type MessageId = number | string;

  /** The events a host can subscribe to. */
  type EmbedEventName = 'change' | 'saturation' | 'lesson-step' | 'answer' | 'lesson-complete' | 'embed-panels' | 'xapi';

  /** A command a host posts to the frame (postMessage(command, playgroundOrigin)). Unknown fields are refused. */
  type EmbedCommand =
    | { attnplay: 1; id?: MessageId; cmd: 'ping' | 'getState' | 'getResult' | 'shareURL' | 'unsubscribe' }
    /** Locks bind the learner, not the host. */
    | { attnplay: 1; id?: MessageId; cmd: 'setState'; state: StateUpdate }
    /** At most 8 names; all of them when `events` is left out. */
    | { attnplay: 1; id?: MessageId; cmd: 'subscribe'; events?: EmbedEventName[] }
    /** The lesson file's text or its object, or a URL the page fetches (one of the two). */
    | { attnplay: 1; id?: MessageId; cmd: 'loadLesson'; lesson: string | object; name?: string }
    | { attnplay: 1; id?: MessageId; cmd: 'loadLesson'; url: string; name?: string };

  /** subscribe's result: the events subscribed to and the saturation now. */
  interface SubscribeResult extends SaturationDetail { events: EmbedEventName[] }

  /** What each command's reply carries in `result` (undefined: the reply has none). */
  interface EmbedResults {
    ping: 'pong';
    getState: State;
    getResult: Result;
    shareURL: string;
    setState: undefined;
    subscribe: SubscribeResult;
    unsubscribe: undefined;
    loadLesson: { id: string; steps: number; warnings: string[] };
  }

  /** The frame's reply to a command, posted to the sender's exact origin. */
  type EmbedReply<C extends keyof EmbedResults = keyof EmbedResults> =
    | { attnplay: 1; id?: MessageId; ok: true; result: EmbedResults[C] }
    | { attnplay: 1; id?: MessageId; ok: false; error: string };

  /** The events' bodies by name. */
  interface EmbedEventDetails {
    change: ChangeDetail;
    saturation: SaturationDetail;
    'lesson-step': LessonStepDetail;
    answer: AnswerDetail;
    'lesson-complete': LessonCompleteDetail;
    'embed-panels': EmbedPanelsDetail;
    xapi: XapiDetail;
  }

  /** An event the frame posts: to subscribers, and `ready` / a crash's `error` to an allow-listed parent. */
  type EmbedEvent =
    | { [E in EmbedEventName]: { attnplay: 1; event: E } & EmbedEventDetails[E] }[EmbedEventName]
    | { attnplay: 1; event: 'ready' }
    | { attnplay: 1; event: 'error'; error: string; crashed: true };

  /** Any message the frame posts. */
  type EmbedMessage = EmbedReply | EmbedEvent;

  // ---- <attention-playground> --------------------------------------------------------------------------------------

  /** The element's events (CustomEvents that bubble and cross the shadow root): the frame's, without attnplay/event. */
  interface AttentionPlaygroundEventMap {
    /** Its page answered (after its first state was applied): subscribe's result. */
    ready: CustomEvent<SubscribeResult>;
    change: CustomEvent<ChangeDetail>;
    saturation: CustomEvent<SaturationDetail>;
    'lesson-step': CustomEvent<LessonStepDetail>;
    answer: CustomEvent<AnswerDetail>;
    'lesson-complete': CustomEvent<LessonCompleteDetail>;
    'embed-panels': CustomEvent<EmbedPanelsDetail>;
    xapi: CustomEvent<XapiDetail>;
    /** A refused state, attribute or lesson, a page that did not answer, or (crashed) the module stopped. */
    error: CustomEvent<ErrorDetail>;
  }

  /** The element's observed attributes. */
  type AttentionPlaygroundAttribute =
    // Embed parameters: changing one reloads the frame, keeping its state.
    | 'src' | 'panels' | 'lock' | 'hide' | 'workspace'
    // State: the first page opens with them; later changes go through setState.
    | 'preset' | 'd-k' | 'scale' | 'temperature' | 'sentence' | 'theme' | 'lang' | 'lesson' | 'step' | 'state'
    // Other: the frame's title and height, a teacher's lesson file fetched by the host page.
    | 'title' | 'height' | 'lesson-src';

  /** The <attention-playground> element (attention-playground.js). */
  interface AttentionPlayground extends HTMLElement {
    /** Resolves with the element once its page answers (a new promise after a reload). */
    readonly ready: Promise<AttentionPlayground>;
    /** The iframe (in the open shadow root), null before the element is first connected. */
    readonly frame: HTMLIFrameElement | null;
    /** A promise of getResult(). */
    readonly result: Promise<Result>;
    /** These wait for `ready`; they reject when the frame does not answer within 30 s or is reloaded. */
    getState(): Promise<State>;
    getResult(): Promise<Result>;
    shareURL(): Promise<string>;
    /** {ok: true}, or {ok: false, error} with the state unchanged. */
    setState(partial: StateUpdate): Promise<OkOrError>;
    /** A teacher's lesson (the file's text or object), opened at step 1; `name` is cut to 200 characters. */
    loadLesson(
      lesson: string | object,
      name?: string,
    ): Promise<{ ok: true; result: { id: string; steps: number; warnings: string[] } } | { ok: false; error: string }>;

    connectedCallback(): void;
    disconnectedCallback(): void;
    attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void;

    addEventListener<K extends keyof AttentionPlaygroundEventMap>(
      type: K,
      listener: (this: AttentionPlayground, ev: AttentionPlaygroundEventMap[K]) => any,
      options?: boolean | AddEventListenerOptions,
    ): void;
    addEventListener<K extends keyof HTMLElementEventMap>(
      type: K,
      listener: (this: HTMLElement, ev: HTMLElementEventMap[K]) => any,
      options?: boolean | AddEventListenerOptions,
    ): void;
    addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
    removeEventListener<K extends keyof AttentionPlaygroundEventMap>(
      type: K,
      listener: (this: AttentionPlayground, ev: AttentionPlaygroundEventMap[K]) => any,
      options?: boolean | EventListenerOptions,
    ): void;
    removeEventListener<K extends keyof HTMLElementEventMap>(
      type: K,
      listener: (this: HTMLElement, ev: HTMLElementEventMap[K]) => any,
      options?: boolean | EventListenerOptions,
    ): void;
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  }

  /**
   * The element's class. The script defines no global of that name: customElements.get('attention-playground')
   * gives it (or document.createElement / querySelector give its instances).
   */
  interface AttentionPlaygroundConstructor {
    new (): AttentionPlayground;
    readonly prototype: AttentionPlayground;
    /** The share fragment ("s=1.…", uncompressed) of a partial state, as the page reads it. */
    fragmentOf(state: StateUpdate): string;
    readonly observedAttributes: AttentionPlaygroundAttribute[];
  }
}

interface Window {
  /**
   * The playground page's API (attnplay-api.js), frozen. Declared as present, as it is on the playground page, where
   * its scripts and automations use it; a host page's own window has none (it uses the element or postMessage).
   */
  readonly attnplay: Attnplay.API;
}

interface HTMLElementTagNameMap {
  'attention-playground': Attnplay.AttentionPlayground;
}

interface CustomElementRegistry {
  get(name: 'attention-playground'): Attnplay.AttentionPlaygroundConstructor | undefined;
}

// Events on the playground page's document, between its own scripts.
interface DocumentEventMap {
  /** The module stopped (attnplay-api.js); attnplay-embed.js tells the host. */
  'attnplay-crash': CustomEvent<{ error: string }>;
  /** An xAPI statement the LMS adapter sent (attnplay-lms.js); attnplay-embed.js forwards it as `xapi`. */
  'attnplay-xapi': CustomEvent<{ [key: string]: unknown }>;
  /** Text for the live region from the parallel DOM (attnplay-a11y.js). */
  'attnplay-announce': CustomEvent<string>;
}
