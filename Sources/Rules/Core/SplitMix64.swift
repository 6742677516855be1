/// A small, fast, seedable random number generator (Steele, Lea & Flood's SplitMix64).
///
/// Games keep one of these inside their value so that a game is fully determined by its
/// start options, its seed and the ordered events applied to it: the basis of replay.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable, Codable {
    /// The generator's whole state; the same state always yields the same sequence.
    public private(set) var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
