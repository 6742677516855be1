import Common
import Foundation

/// A character a player picks and grows with right answers: the compound-word trainer's reward that is no trophy
/// ("choose a character that unlocks upgrades").
public struct RewardCharacter: Sendable, Equatable {
    /// Its wire id (`fox`), also the word people type.
    public var id: String
    /// Its name for people (`Fox`).
    public var name: String

    /// Creates a character.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The rewards' rules: which characters there are, and which stage a number of right answers reaches.
public enum Rewards {
    /// The characters a player may pick, in the order the picker shows them.
    public static let characters: [RewardCharacter] = [
        RewardCharacter(id: "fox", name: "Fox"), RewardCharacter(id: "owl", name: "Owl"),
        RewardCharacter(id: "frog", name: "Frog"), RewardCharacter(id: "bear", name: "Bear"),
        RewardCharacter(id: "robot", name: "Robot"),
    ]

    /// The right answers at which each stage is reached: stage 1 at once, stage 2 after 3, stage 3 after 10 and
    /// stage 4 after 25 (a child's first game grows the character once; the last stage takes a few games).
    public static let thresholds = [0, 3, 10, 25]

    /// How many stages a character has.
    public static var stages: Int { thresholds.count }

    /// What each stage adds, for people: stage 1 is the little one.
    public static let upgrades = ["a little one", "a scarf", "a hat", "a crown"]

    /// The character whose id is `id` (any case, spaces around ignored); nil when there is none.
    public static func character(_ id: String) -> RewardCharacter? {
        let key = id.trimmingCharacters(in: .whitespaces).lowercased()
        return characters.first { $0.id == key }
    }

    /// The stage (1…`stages`) that `rightAnswers` right answers reach.
    public static func stage(rightAnswers: Int) -> Int {
        thresholds.lastIndex { rightAnswers >= $0 }.map { $0 + 1 } ?? 1
    }

    /// The right answers at which the stage after the one `rightAnswers` reach comes; nil at the last stage.
    public static func next(after rightAnswers: Int) -> Int? {
        thresholds.first { $0 > rightAnswers }
    }

    /// What stage `stage` adds, for people (`a scarf`).
    public static func upgrade(_ stage: Int) -> String {
        upgrades[min(max(stage, 1), upgrades.count) - 1]
    }
}

/// Where one player stands: their character (if picked), its stage and what the next one takes.
public struct RewardProgress: Sendable, Equatable {
    /// The player's name as first kept.
    public var name: String
    /// The picked character's id, or nil before the player picked one.
    public var character: String?
    /// Right answers counted since the player picked.
    public var rightAnswers: Int
    /// Whether this change reached a new stage.
    public var grew: Bool

    /// Creates a progress value.
    public init(name: String, character: String?, rightAnswers: Int, grew: Bool = false) {
        self.name = name
        self.character = character
        self.rightAnswers = rightAnswers
        self.grew = grew
    }

    /// The stage reached (1…4), or 0 without a character.
    public var stage: Int { character == nil ? 0 : Rewards.stage(rightAnswers: rightAnswers) }
    /// The right answers at which the next stage comes; nil at the last stage (and without a character).
    public var next: Int? { character == nil ? nil : Rewards.next(after: rightAnswers) }
    /// Whether the player may still pick another character: until theirs first grows.
    public var canChange: Bool { stage <= 1 }
}

/// Every player's rewards, by name: the pure value the host keeps in its data folder (`rewards/players.json`).
///
/// Right answers count only once a player has picked a character; a character may be changed until it first
/// grows, and then stays. Each stage reached is noted with its date and game, for the teacher's history.
public struct RewardBook: Codable, Sendable, Equatable {
    /// One stage a player's character reached.
    public struct Unlock: Codable, Sendable, Equatable {
        /// The character that grew.
        public var character: String
        /// The stage reached (2…4).
        public var stage: Int
        /// When (ISO 8601, UTC).
        public var date: String
        /// The game it happened in (its mode's name), if any.
        public var game: String?

        /// Creates an unlock.
        public init(character: String, stage: Int, date: String, game: String?) {
            self.character = character
            self.stage = stage
            self.date = date
            self.game = game
        }
    }

    /// One player's entry.
    public struct Entry: Codable, Sendable, Equatable {
        /// The name as first kept.
        public var name: String
        /// The picked character's id.
        public var character: String?
        /// When the character was picked (ISO 8601).
        public var picked: String?
        /// Right answers counted since the pick.
        public var rightAnswers: Int
        /// The stages reached, oldest first.
        public var unlocked: [Unlock]

        /// Creates an entry.
        public init(
            name: String, character: String? = nil, picked: String? = nil, rightAnswers: Int = 0,
            unlocked: [Unlock] = []
        ) {
            self.name = name
            self.character = character
            self.picked = picked
            self.rightAnswers = rightAnswers
            self.unlocked = unlocked
        }
    }

    /// The layout version.
    public var version = 1
    /// Every player's entry, by name lower-cased.
    public var players: [String: Entry] = [:]

    /// An empty book.
    public init() {}

    /// The key a name is kept under.
    public static func key(_ name: String) -> String { name.lowercased() }

    /// Where `name` stands (nothing picked for a name the book does not know).
    public func progress(of name: String) -> RewardProgress {
        let entry = players[Self.key(name)]
        return RewardProgress(
            name: entry?.name ?? name, character: entry?.character, rightAnswers: entry?.rightAnswers ?? 0)
    }

    /// Picks `id` for `name` on `date`; refuses a character that does not exist, and a change once the player's
    /// character has grown.
    public mutating func pick(_ id: String, for name: String, date: String) throws(RuleError) -> RewardProgress {
        guard let character = Rewards.character(id) else {
            let names = Rewards.characters.map(\.id).joined(separator: ", ")
            throw RuleError(.badChoice, "There is no character \"\(id.prefix(32))\"; pick one of \(names).")
        }
        var entry = players[Self.key(name)] ?? Entry(name: name)
        if let current = entry.character, current != character.id, !progress(of: name).canChange {
            throw RuleError(
                .alreadyPicked,
                "Your \(current) has grown, so it stays yours; it keeps growing with every right answer.")
        }
        if entry.character != character.id {
            entry.character = character.id
            entry.picked = date
        }
        players[Self.key(name)] = entry
        return progress(of: name)
    }

    /// Counts `count` right answers of `name` on `date` in `game`; nil when the player has no character (nothing
    /// is counted then). The progress says whether the character grew.
    public mutating func credit(
        _ name: String, count: Int = 1, date: String, game: String?
    ) -> RewardProgress? {
        guard count > 0, var entry = players[Self.key(name)], let character = entry.character else { return nil }
        let before = Rewards.stage(rightAnswers: entry.rightAnswers)
        entry.rightAnswers += count
        let after = Rewards.stage(rightAnswers: entry.rightAnswers)
        if after > before {
            for stage in (before + 1)...after {
                entry.unlocked.append(Unlock(character: character, stage: stage, date: date, game: game))
            }
        }
        players[Self.key(name)] = entry
        var progress = progress(of: name)
        progress.grew = after > before
        return progress
    }

    /// Every entry with a character, by name (any case, then as written).
    public var entries: [Entry] {
        players.values.filter { $0.character != nil }.sorted {
            ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name)
        }
    }
}
