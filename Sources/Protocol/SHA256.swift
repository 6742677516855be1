/// SHA-256 (FIPS 180-4) in plain Swift, so the host can publish deal commitments without any library.
///
/// Feed bytes with `update(_:)` as often as you like, then call `finalize()` once; or use `hash(_:)`.
public struct SHA256: Sendable {
    /// The eight 32-bit words of the running hash value (H0…H7 in FIPS 180-4).
    private var state: [UInt32] = [
        0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19,
    ]
    /// Bytes not yet processed; always fewer than 64 between calls.
    private var pending: [UInt8] = []
    /// How many message bytes have been fed in total.
    private var byteCount: UInt64 = 0

    /// Creates a hasher with nothing fed yet.
    public init() { pending.reserveCapacity(64) }

    /// Feeds more message bytes.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(contiguous: UnsafeRawBufferPointer(buffer))
        }
        guard handled == nil else { return }
        for byte in bytes {
            pending.append(byte)
            byteCount &+= 1
            if pending.count == 64 {
                pending.withUnsafeBytes { Self.compress(block: $0, into: &state) }
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the message, processes the last blocks and returns the 32-byte digest.
    ///
    /// The hasher is spent afterwards; make a new one for another message.
    public mutating func finalize() -> [UInt8] {
        let bitLength = byteCount &* 8
        var tail: [UInt8] = [0x80]
        let afterMarker = (pending.count + 1) % 64
        let zeros = afterMarker <= 56 ? 56 - afterMarker : 120 - afterMarker
        tail.append(contentsOf: repeatElement(0, count: zeros))
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        update(tail)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The SHA-256 digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 digest of `string`'s UTF-8 bytes, as 64 lowercase hex digits.
    public static func hexDigest(of string: String) -> String {
        hexString(hash(string.utf8))
    }

    /// `bytes` as lowercase hex, two digits per byte.
    public static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Feeds bytes that are already contiguous: whole blocks are compressed straight from the caller's memory.
    private mutating func update(contiguous bytes: UnsafeRawBufferPointer) {
        byteCount &+= UInt64(bytes.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            index = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { Self.compress(block: $0, into: &state) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - index >= 64 {
            Self.compress(block: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + 64)]), into: &state)
            index += 64
        }
        pending.append(contentsOf: bytes[index...])
    }

    /// Processes one 64-byte block into the hash value `state` (FIPS 180-4 section 6.2.2).
    private static func compress(block: UnsafeRawBufferPointer, into state: inout [UInt32]) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for t in 0..<16 {
                let offset = t * 4
                schedule[t] =
                    UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
                    | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
            }
            for t in 16..<64 {
                let w15 = schedule[t - 15]
                let w2 = schedule[t - 2]
                let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
            }
            var a = state[0]
            var b = state[1]
            var c = state[2]
            var d = state[3]
            var e = state[4]
            var f = state[5]
            var g = state[6]
            var h = state[7]
            roundConstants.withUnsafeBufferPointer { k in
                for t in 0..<64 {
                    let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let temp1 = h &+ s1 &+ choice &+ k[t] &+ schedule[t]
                    let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let temp2 = s0 &+ majority
                    h = g
                    g = f
                    f = e
                    e = d &+ temp1
                    d = c
                    c = b
                    b = a
                    a = temp1 &+ temp2
                }
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
            state[5] &+= f
            state[6] &+= g
            state[7] &+= h
        }
    }

    /// The 64 round constants K0…K63 of FIPS 180-4 section 4.2.2.
    private static let roundConstants: [UInt32] = [
        0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4, 0xAB1C_5ED5,
        0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE, 0x9BDC_06A7, 0xC19B_F174,
        0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F, 0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA,
        0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7, 0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967,
        0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC, 0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85,
        0xA2BF_E8A1, 0xA81A_664B, 0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070,
        0x19A4_C116, 0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
        0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7, 0xC671_78F2,
    ]
}

extension UInt32 {
    /// The value rotated right by `count` bits.
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
