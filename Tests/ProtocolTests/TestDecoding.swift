import Protocol

/// The game actions the host knows today (the host passes its registry's list).
let actions = Set(ShakyWire.Action.types + QueenWire.Action.types)

/// A line as the host reads it: a session message, or a game action decoded by its game's wire.
enum Decoded: Equatable {
    case message(ClientMessage)
    case shaky(ShakyWire.Action)
    case queen(QueenWire.Action)
}

func decode(_ text: String) -> Result<ClientEnvelope, ProtocolError> {
    ClientMessageDecoding.decode(line: Array(text.utf8), actions: actions)
}

/// Both stages: the envelope, then (for a game action) the game's own decoder.
func decodeFully(_ text: String) -> Result<Decoded, ProtocolError> { decodeFully(decode(text)) }

/// Both stages for a parsed value.
func decodeFully(_ value: JSONValue) -> Result<Decoded, ProtocolError> {
    decodeFully(ClientMessageDecoding.decode(value, actions: actions))
}

/// Both stages for raw bytes.
func decodeFully(line: [UInt8]) -> Result<Decoded, ProtocolError> {
    decodeFully(ClientMessageDecoding.decode(line: line, actions: actions))
}

/// The second stage: a game action decoded by its game's wire.
func decodeFully(_ envelope: Result<ClientEnvelope, ProtocolError>) -> Result<Decoded, ProtocolError> {
    switch envelope {
    case .failure(let error): return .failure(error)
    case .success(let envelope):
        guard case .play(let request) = envelope.message else { return .success(.message(envelope.message)) }
        do throws(ProtocolError) {
            if ShakyWire.Action.types.contains(request.type) {
                return .success(.shaky(try ShakyWire.Action.decode(request)))
            }
            return .success(.queen(try QueenWire.Action.decode(request)))
        } catch {
            var refusal = error
            refusal.id = envelope.id  // the host answers a refused action with the request's id, as for any other
            return .failure(refusal)
        }
    }
}
