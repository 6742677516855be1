/// Something a player earns once, ever: kept per player name in the host's data folder and announced when earned.
public enum FlyAchievement: String, Codable, Sendable, CaseIterable {
    /// The first phone ever caught.
    case firstCatch
    /// A catch from 5 m or higher.
    case club5
    /// A catch from 10 m or higher.
    case club10
    /// A catch from 20 m or higher.
    case club20
    /// A throw at 99 % power or more.
    case fullPower
    /// A catch within 20 ms of the landing.
    case perfectCatch
    /// Three clean catches in a row.
    case safeHands
    /// A streak bonus of +50 %: five clean catches above 5 m in a row.
    case onARoll
    /// Three drops in one game.
    case butterfingers
    /// A clean catch of the most expensive phone from 10 m or higher.
    case daredevil
    /// A challenge beaten.
    case challengeWon

    /// Its name for people.
    public var title: String {
        switch self {
        case .firstCatch: "First flight"
        case .club5: "5 m club"
        case .club10: "10 m club"
        case .club20: "20 m club"
        case .fullPower: "Full power"
        case .perfectCatch: "Perfect catch"
        case .safeHands: "Safe hands"
        case .onARoll: "On a roll"
        case .butterfingers: "Butterfingers"
        case .daredevil: "Daredevil"
        case .challengeWon: "Challenge accepted"
        }
    }

    /// What it takes, in one sentence.
    public var description: String {
        switch self {
        case .firstCatch: "Catch your first phone from 1 m or higher."
        case .club5: "Catch a throw from 5 m or higher."
        case .club10: "Catch a throw from 10 m or higher."
        case .club20: "Catch a throw from 20 m or higher."
        case .fullPower: "Throw at 99 % power or more."
        case .perfectCatch: "Catch within 20 ms of the landing from 1 m or higher."
        case .safeHands: "Catch cleanly three times in a row from 1 m or higher."
        case .onARoll: "Reach a +50 % streak bonus."
        case .butterfingers: "Drop three phones in one game."
        case .daredevil: "Catch the flagship cleanly from 10 m or higher."
        case .challengeWon: "Beat the height someone challenged you to."
        }
    }
}
