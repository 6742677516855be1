/// SHA-1 (FIPS 180-4) in plain Swift, for the WebSocket handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2).
///
/// SHA-1 is broken for signatures; RFC 6455 uses it only to prove the server read the handshake, and this project
/// uses it for nothing else. Hashes are short here, so there is one call: `hash(_:)`.
public enum SHA1 {
    /// The 20-byte SHA-1 digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var schedule = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            for t in 0..<16 {
                let offset = blockStart + t * 4
                schedule[t] =
                    UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16
                    | UInt32(message[offset + 2]) << 8 | UInt32(message[offset + 3])
            }
            for t in 16..<80 {
                schedule[t] = (schedule[t - 3] ^ schedule[t - 8] ^ schedule[t - 14] ^ schedule[t - 16]).rotatedLeft(1)
            }
            var a = state[0]
            var b = state[1]
            var c = state[2]
            var d = state[3]
            var e = state[4]
            for t in 0..<80 {
                let mixed: UInt32
                let constant: UInt32
                switch t {
                case 0..<20:
                    mixed = (b & c) | (~b & d)
                    constant = 0x5A82_7999
                case 20..<40:
                    mixed = b ^ c ^ d
                    constant = 0x6ED9_EBA1
                case 40..<60:
                    mixed = (b & c) | (b & d) | (c & d)
                    constant = 0x8F1B_BCDC
                default:
                    mixed = b ^ c ^ d
                    constant = 0xCA62_C1D6
                }
                let temp = a.rotatedLeft(5) &+ mixed &+ e &+ constant &+ schedule[t]
                e = d
                d = c
                c = b.rotatedLeft(30)
                b = a
                a = temp
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }
}

extension UInt32 {
    /// The value rotated left by `count` bits.
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 { (self << count) | (self >> (32 - count)) }
}
