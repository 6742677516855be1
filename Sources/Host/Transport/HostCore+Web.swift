/// The core's side of the transport's WebSocket events: they concern only the session layer.
extension HostCore {
    /// A connection upgraded to a WebSocket.
    func upgraded(_ id: SessionID) { sessions.upgraded(id, at: now) }

    /// A WebSocket ping or pong arrived; false refuses a ping over the message rate.
    func heard(from id: SessionID, isPing: Bool) -> Bool { sessions.heard(from: id, isPing: isPing, at: now) }
}
