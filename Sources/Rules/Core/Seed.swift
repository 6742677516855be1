/// A game's random seed as a start record keeps it: always written as decimal text, because a JSON number holds
/// only 53 bits exactly and a 64-bit seed read back through one would start a different game on `--resume`.
public struct Seed: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The seed's 64 bits.
    public let value: UInt64

    /// A seed of `value`.
    public init(_ value: UInt64) { self.value = value }

    /// Reads the seed's text; anything but a whole number from 0 to 2⁶⁴ − 1 is an error, never a silent 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = UInt64(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a seed is a whole number from 0 to 2^64 - 1 as text, not \"\(text)\"")
        }
        self.value = value
    }

    /// Writes the seed as its decimal text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(value))
    }

    /// The decimal text.
    public var description: String { String(value) }
}
