/// Where a player's reward character stands (PROTOCOL.md §6.1): the character picked (null before a pick), its
/// stage, the right answers counted and what the next stage takes. To that player only: in answer to their
/// `character` request, and after each right answer that counts.
public struct CharacterProgress: HostMessage {
    public static let type = "character"
    /// The picked character's id (`fox`), or null before the player picked one.
    @Nullable public var character: String?
    /// The stage reached, 1…`stages`; 0 without a character.
    public var stage: Int
    /// How many stages a character has.
    public var stages: Int
    /// Right answers counted since the pick.
    public var rightAnswers: Int
    /// The right answers at which the next stage comes; null at the last stage and without a character.
    @Nullable public var next: Int?
    /// Whether the player may still pick another character (until theirs first grows).
    public var canChange: Bool
    /// The characters there are, in the order a picker shows them.
    public var choices: [String]
    /// What the reached stage adds, for people (`a scarf`); absent without a character.
    public var upgrade: String?
    /// `true` only when this message tells of a stage just reached.
    public var grew: Bool?
    /// `true` only in the answer to the player's own pick.
    public var picked: Bool?

    /// Creates the message.
    public init(
        character: String?, stage: Int, stages: Int, rightAnswers: Int, next: Int?, canChange: Bool,
        choices: [String], upgrade: String? = nil, grew: Bool = false, picked: Bool = false
    ) {
        self.character = character
        self.stage = stage
        self.stages = stages
        self.rightAnswers = rightAnswers
        self.next = next
        self.canChange = canChange
        self.choices = choices
        self.upgrade = upgrade
        self.grew = grew ? true : nil
        self.picked = picked ? true : nil
    }

    /// A line only for a growth or a pick: the counting in between goes by quietly.
    public func line(for reader: Perspective) -> String? {
        guard character != nil, grew == true || picked == true else { return nil }
        return summary
    }

    /// Where the character stands, in one line for people (also before a pick: how to pick one).
    public var summary: String {
        guard let character else {
            return "Pick a character that grows with your right answers: type character NAME ("
                + choices.joined(separator: ", ") + ")."
        }
        let more = next.map { " \(Wording.count($0 - rightAnswers, "more right answer")) to grow." } ?? ""
        if grew == true {
            return "Your \(character) grew: stage \(stage) of \(stages)" + (upgrade.map { ", with \($0)" } ?? "")
                + "!" + more
        }
        return "Your character is the \(character): stage \(stage) of \(stages), "
            + "\(Wording.count(rightAnswers, "right answer")).\(more)"
    }
}
