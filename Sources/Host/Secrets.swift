/// Random secrets and their safe comparison.
enum Secrets {
    /// `byteCount` random bytes from the system's cryptographic generator, as lowercase hex.
    static func hex(byteCount: Int, using generator: inout some RandomNumberGenerator) -> String {
        var text = ""
        for _ in 0..<byteCount {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text += String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return text
    }

    /// A room code: `length` capital letters without the ambiguous I, O and L.
    static func roomCode(length: Int = 4, using generator: inout some RandomNumberGenerator) -> String {
        let letters = Array("ABCDEFGHJKMNPQRSTUVWXYZ")
        return String((0..<length).map { _ in letters[Int.random(in: 0..<letters.count, using: &generator)] })
    }

    /// The letters of rejoin codes: capitals and digits that cannot be mistaken for one another (no O/0/Q/D,
    /// I/1/L/J, S/5, Z/2, B/8, G/6, U/V).
    static let codeAlphabet = Array("ACEFHKMNPRTWXY3479")

    /// A rejoin code: `length` characters of `codeAlphabet` (7 give 18^7 ≈ 2^29; attempts are rate-limited).
    static func rejoinCode(length: Int = 7, using generator: inout some RandomNumberGenerator) -> String {
        String((0..<length).map { _ in codeAlphabet[Int.random(in: 0..<codeAlphabet.count, using: &generator)] })
    }

    /// Compares two secrets in time that depends only on their lengths, not on where they differ.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
