import Common

/// The rules every content library shares for names and ids: one place for "a name needs a letter", "names
/// are unique once folded" and "ids are free slugs".
public enum ContentNames {
    /// The longest id made from a name, in characters.
    public static let maximumIDLength = 40

    /// `name` trimmed, once it has a letter or digit and fits `maximumLength` on one line (free or not).
    ///
    /// `noun` words the messages ("puzzle pack", "hunt"); `badName` is the code of the refusal.
    public static func checkedName(
        _ name: String, noun: String, maximumLength: Int, badName: ErrorCode
    ) throws(RuleError) -> String {
        let name = ContentText.trimmed(name)
        guard !TextFolding.fold(name).isEmpty else {
            throw RuleError(badName, "A \(noun) needs a name with at least one letter or digit.")
        }
        guard name.count <= maximumLength else {
            throw RuleError(badName, "A \(noun) name can be at most \(maximumLength) characters long.")
        }
        guard !name.contains(where: \.isNewline) else {
            throw RuleError(badName, "A \(noun) name must fit on one line.")
        }
        if let problem = TerminalText.problem(in: name) { throw RuleError(.badText, problem.refusal("A \(noun) name")) }
        return name
    }

    /// The refusal for a name another item already has: "There is already a <noun> called "<name>"; …".
    public static func takenRefusal(_ name: String, noun: String, code: ErrorCode) -> RuleError {
        RuleError(code, "There is already a \(noun) called \"\(name)\"; choose another name.")
    }

    /// " Did you mean <id>?" when one of `ids` is near `id` (a typo), else nothing.
    public static func suggestion(for id: String, among ids: [String]) -> String {
        let typed = Array(TextFolding.compact(id))
        let closest = ids.map { ($0, AnswerJudge.editDistance(typed, Array(TextFolding.compact($0)))) }
            .min { $0.1 < $1.1 }
        guard let (candidate, distance) = closest, distance <= max(2, typed.count / 3) else { return "" }
        return " Did you mean \(candidate)?"
    }

    /// Refuses a 0-based `index` outside the `count` entries (`noun`: "question") of an item (`owner`: "The pack
    /// "Quiz night""); the message counts from 1, as operators do.
    public static func checkIndex(_ index: Int, count: Int, of noun: String, in owner: String) throws(RuleError) {
        guard !(0..<count).contains(index) else { return }
        if count == 0 { throw RuleError(.badQuestionIndex, "\(owner) has no \(noun)s yet.") }
        throw RuleError(
            .badQuestionIndex, "\(owner) has no \(noun) \(index + 1); its \(noun)s are numbered 1 to \(count).")
    }

    /// Whether two names are the same once case, accents, spacing and punctuation are ignored.
    public static func same(_ lhs: String, _ rhs: String) -> Bool { TextFolding.fold(lhs) == TextFolding.fold(rhs) }

    /// An id made from `text`: folded, only `a-z`, `0-9` and single dashes, at most `maximumIDLength` long, never
    /// empty ("pack" when nothing is left).
    public static func slug(_ text: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in TextFolding.fold(text).unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                let dash = pendingDash && !slug.isEmpty
                if slug.unicodeScalars.count + (dash ? 2 : 1) > maximumIDLength { break }
                if dash { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "pack" : slug
    }

    /// A slug of `text` (see `slug`) that `isTaken` does not refuse: `base`, `base-2`, `base-3`…
    public static func uniqueID(for text: String, isTaken: (String) -> Bool) -> String {
        let base = slug(text)
        var candidate = base
        var suffix = 1
        while isTaken(candidate) {
            suffix += 1
            candidate = "\(base)-\(suffix)"
        }
        return candidate
    }

    /// `id` itself when it is already a free slug, otherwise a fresh one made from it (or from `name` when empty).
    public static func keptOrFreshID(_ id: String, name: String, isTaken: (String) -> Bool) -> String {
        if !id.isEmpty, slug(id) == id, !isTaken(id) { return id }
        return uniqueID(for: id.isEmpty ? name : id, isTaken: isTaken)
    }
}

/// Drawing content for a game by difficulty, the same way for every kind that has one.
public enum DifficultyDraw {
    /// `count` different items of `pool` that `choice` admits, at random; `mixed` spreads the draw as evenly as the
    /// pool allows over easy, medium and hard (starting at a random difficulty) and shuffles the result.
    ///
    /// The caller checked that the pool holds at least `count` admitted items.
    public static func draw<Item>(
        _ count: Int, from pool: [Item], difficulty choice: DifficultyChoice, of difficulty: (Item) -> Difficulty,
        using rng: inout some RandomNumberGenerator
    ) -> [Item] {
        let admitted = pool.filter { choice.admits(difficulty($0)) }
        guard choice == .mixed else { return pick(count, from: admitted, using: &rng) }
        let buckets: [[Item]] = Difficulty.allCases.map { level in admitted.filter { difficulty($0) == level } }
        var quotas = [Int](repeating: 0, count: buckets.count)
        var next = Int(rng.next(upperBound: UInt64(buckets.count)))
        var remaining = min(count, admitted.count)
        while remaining > 0 {
            if quotas[next] < buckets[next].count {
                quotas[next] += 1
                remaining -= 1
            }
            next = (next + 1) % buckets.count
        }
        var drawn: [Item] = []
        for bucket in buckets.indices { drawn += pick(quotas[bucket], from: buckets[bucket], using: &rng) }
        return pick(drawn.count, from: drawn, using: &rng)
    }

    /// Draws like `draw`, but the items `isPlayed` says were played tonight come last: when `pool` holds fewer than
    /// `count` fresh ones, all of them and enough played ones are drawn (shuffled, whatever their difficulty), and
    /// `repeated` says how many were played. The caller checked that the pool holds at least `count` items.
    public static func draw<Item>(
        _ count: Int, from pool: [Item], difficulty choice: DifficultyChoice, of difficulty: (Item) -> Difficulty,
        avoiding isPlayed: (Item) -> Bool, using rng: inout some RandomNumberGenerator
    ) -> (items: [Item], repeated: Int) {
        let fresh = pool.filter { !isPlayed($0) }
        guard fresh.count >= count else {
            let drawn = fresh + pick(count - fresh.count, from: pool.filter(isPlayed), using: &rng)
            return (pick(drawn.count, from: drawn, using: &rng), count - fresh.count)
        }
        return (draw(count, from: fresh, difficulty: choice, of: difficulty, using: &rng), 0)
    }

    /// Picks `count` distinct elements of `items` in random order (a partial Fisher–Yates shuffle).
    public static func pick<Element>(_ count: Int, from items: [Element], using rng: inout some RandomNumberGenerator)
        -> [Element]
    {
        var items = items
        let count = min(count, items.count)
        for position in 0..<count {
            let other = position + Int(rng.next(upperBound: UInt64(items.count - position)))
            items.swapAt(position, other)
        }
        return Array(items.prefix(count))
    }

    /// `items` shuffled by Fisher–Yates with `rng`, written out (a plain modulo per draw) so that a seed replays
    /// identically whatever the standard library's own shuffling does.
    public static func shuffled<Item>(_ items: [Item], using rng: inout some RandomNumberGenerator) -> [Item] {
        var items = items
        guard items.count > 1 else { return items }
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, Int(rng.next() % UInt64(index + 1)))
        }
        return items
    }
}
