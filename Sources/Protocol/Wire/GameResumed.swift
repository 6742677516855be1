/// The clocks run again after a pause: sent in a game whose mode has no `resumed` message of its own.
///
/// Every mode's own `resumed` message has the same type (its fields say when its clocks now end), so a client
/// ends the pause on any message of type `resumed`, whatever the mode.
public struct GameResumed: HostMessage {
    public static let type = "resumed"

    /// Creates the message.
    public init() {}

    public func line(for reader: Perspective) -> String? { "The game continues." }
}
