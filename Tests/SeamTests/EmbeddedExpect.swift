import Protocol
// The in-process host (`EmbeddedHost`, `EmbeddedConnection`, `RecordingOutlet`) lives in TestSupport; every file of
// these tests sees it, as when it was one of them.
@_exported import TestSupport
import Testing

extension EmbeddedConnection {
    /// The next unread message of `type`, skipping others; fails the test when none arrived.
    func expect(_ type: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        if let message = nextUnread(type) { return message }
        Issue.record("no \(type) arrived", sourceLocation: sourceLocation)
        throw EmbeddedError.missing(type)
    }
}
