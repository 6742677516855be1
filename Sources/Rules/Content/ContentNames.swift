import Common

/// The rules every content library shares for names and ids: one place for "a name needs a letter", "names
/// are unique once folded" and "ids are free slugs".
public enum ContentNames {
    /// `name` trimmed, once it has a letter or digit, fits `maximumLength` on one line and is not taken.
    ///
    /// `noun` words the messages ("pack", "hunt"); `badName` and `taken` are the codes of the two refusals.
    public static func checked(
        _ name: String, noun: String, maximumLength: Int, badName: ErrorCode, taken: ErrorCode,
        isTaken: (String) -> Bool
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
        guard !isTaken(name) else {
            throw RuleError(taken, "There is already a \(noun) called \"\(name)\"; choose another name.")
        }
        return name
    }

    /// Whether two names are the same once case, accents, spacing and punctuation are ignored.
    public static func same(_ lhs: String, _ rhs: String) -> Bool { TextFolding.fold(lhs) == TextFolding.fold(rhs) }

    /// A slug of `text` (see `PackLibrary.makeSlug`) that `isTaken` does not refuse: `base`, `base-2`, `base-3`…
    public static func uniqueID(for text: String, isTaken: (String) -> Bool) -> String {
        let base = PackLibrary.makeSlug(text)
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
        if !id.isEmpty, PackLibrary.makeSlug(id) == id, !isTaken(id) { return id }
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
        guard choice == .mixed else { return PackLibrary.pick(count, from: admitted, using: &rng) }
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
        for bucket in buckets.indices { drawn += PackLibrary.pick(quotas[bucket], from: buckets[bucket], using: &rng) }
        return PackLibrary.pick(drawn.count, from: drawn, using: &rng)
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
