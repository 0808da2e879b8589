/**
 * Answers a process gives again and again (what a link is: every page's menus link to the same pages),
 * remembered up to `size` of them; a full cache starts over. Answers are frozen, as every caller shares one.
 * No `node:` imports: the browser's router asks the link classifier too.
 */
export class AnswerCache<K, V extends object> {
  readonly #answers = new Map<K, Readonly<V>>()

  constructor(private readonly size: number) {}

  get(key: K): Readonly<V> | undefined {
    return this.#answers.get(key)
  }

  /** Remembers `answer` for `key` and returns it, frozen. */
  add(key: K, answer: V): Readonly<V> {
    if (this.#answers.size >= this.size) this.#answers.clear()
    const frozen = Object.freeze(answer)
    this.#answers.set(key, frozen)
    return frozen
  }
}
