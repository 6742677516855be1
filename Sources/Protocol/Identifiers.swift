/// A string that names one thing of a kind (a player's id, a player's name, a team's name), typed by its kind so
/// that one kind cannot be passed where another is meant (a name where an id is expected is a compile error). On
/// the wire and in files it is the plain string.
public struct Identifier<Kind: IdentifierKind>: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The string as written.
    public let value: String

    /// The identifier written `value`.
    public init(_ value: String) { self.value = value }

    /// Reads the plain string.
    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }

    /// Writes the plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// The string as written.
    public var description: String { value }
}

/// The kind of an `Identifier`: a type that is never made, only named.
public protocol IdentifierKind: Sendable {}

/// The kind of a player's id in a room (`p2`): stable for the room's life, never shown to people.
public enum PlayerIDKind: IdentifierKind {}
/// The kind of a player's name as people write it (`Ann`), unique in a room once folded.
public enum PlayerNameKind: IdentifierKind {}
/// The kind of a team's name as people write it (`Red`); teams are told apart by the folded name.
public enum TeamNameKind: IdentifierKind {}

/// A player's id in a room (`p2`).
public typealias PlayerID = Identifier<PlayerIDKind>
/// A player's name (`Ann`).
public typealias PlayerName = Identifier<PlayerNameKind>
/// A team's name (`Red`).
public typealias TeamName = Identifier<TeamNameKind>
