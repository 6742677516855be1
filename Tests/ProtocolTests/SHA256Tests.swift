import Testing

@testable import Protocol

@Suite struct SHA256Tests {
    // FIPS 180-4 / NIST example vectors.
    private let vectors: [(message: String, digest: String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ]

    @Test func fipsVectors() {
        for vector in vectors {
            #expect(SHA256.hexDigest(of: vector.message) == vector.digest, "message \"\(vector.message)\"")
        }
    }

    @Test func oneMillionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hexString(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000))) == expected)
        // The same million bytes fed through the non-contiguous path, 1000 at a time.
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update(repeatElement(UInt8(0x61), count: 1000)) }
        #expect(SHA256.hexString(hasher.finalize()) == expected)
    }

    @Test func paddingBoundaries() {
        // Lengths around the 55/56/64-byte padding edges, checked against digests from `sha256sum`.
        let expected: [Int: String] = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            63: "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
            65: "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0",
        ]
        for (length, digest) in expected {
            #expect(
                SHA256.hexString(SHA256.hash([UInt8](repeating: 0x61, count: length))) == digest, "length \(length)")
        }
    }

    @Test func incrementalUpdatesMatchOneShot() {
        var generator = 0x1234_5678 as UInt32
        let message: [UInt8] = (0..<1000).map { _ in
            generator = generator &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: generator >> 16)
        }
        let oneShot = SHA256.hash(message)
        for splits in [[1], [3, 61, 64], [63, 1, 7], [0, 55, 9, 200], [127, 129, 500], [999]] {
            var hasher = SHA256()
            var start = 0
            for length in splits where start < message.count {
                let end = min(message.count, start + length)
                hasher.update(message[start..<end])
                start = end
            }
            hasher.update(message[start...])
            #expect(hasher.finalize() == oneShot, "splits \(splits)")
        }
        // Byte by byte through a lazy (non-contiguous) sequence.
        var hasher = SHA256()
        for byte in message { hasher.update(CollectionOfOne(byte).lazy.map { $0 }) }
        #expect(hasher.finalize() == oneShot)
    }

    @Test func hexString() {
        #expect(SHA256.hexString([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(SHA256.hexString([]) == "")
        #expect(DealCommitment.saltHex(Array(0...15)) == "000102030405060708090a0b0c0d0e0f")
    }

    // MARK: - Deal commitment

    private let exampleSalt = "000102030405060708090a0b0c0d0e0f"
    private let exampleNumbers = ["Ana": 2, "Bo": 1, "Chlo\u{E9}": 3]

    @Test func canonicalEncodingIsExact() {
        let encoding = DealCommitment.canonicalEncoding(
            room: "ABCD", round: 1, saltHex: exampleSalt.uppercased(),
            numbers: exampleNumbers)
        #expect(
            encoding
                == "partyline-deal-v1\nroom=ABCD\nround=1\nsalt=000102030405060708090a0b0c0d0e0f\n1=Bo\n2=Ana\n3=Chlo\u{E9}"
        )
    }

    @Test func commitmentTestVector() {
        // Cross-checked with:
        // printf 'partyline-deal-v1\nroom=ABCD\nround=1\nsalt=000102030405060708090a0b0c0d0e0f\n1=Bo\n2=Ana\n3=Chloé' | sha256sum
        let expected = "821328a27f2c073f689e68e4c8c76225905eb9ceebedbd6f28d2e3a6925c41f0"
        #expect(
            DealCommitment.commitment(room: "ABCD", round: 1, saltHex: exampleSalt, numbers: exampleNumbers)
                == expected)
        #expect(
            DealCommitment.verify(
                commitment: expected, room: "ABCD", round: 1, saltHex: exampleSalt,
                numbers: exampleNumbers))
        #expect(
            DealCommitment.verify(
                commitment: expected.uppercased(), room: "ABCD", round: 1, saltHex: exampleSalt,
                numbers: exampleNumbers))
    }

    @Test func tamperedDealDoesNotVerify() {
        let commitment = DealCommitment.commitment(
            room: "ABCD", round: 1, saltHex: exampleSalt, numbers: exampleNumbers)
        var swapped = exampleNumbers
        swapped["Ana"] = 1
        swapped["Bo"] = 2
        #expect(
            !DealCommitment.verify(
                commitment: commitment, room: "ABCD", round: 1, saltHex: exampleSalt,
                numbers: swapped))
        #expect(
            !DealCommitment.verify(
                commitment: commitment, room: "ABCD", round: 2, saltHex: exampleSalt,
                numbers: exampleNumbers))
        #expect(
            !DealCommitment.verify(
                commitment: commitment, room: "ABCE", round: 1, saltHex: exampleSalt,
                numbers: exampleNumbers))
        #expect(
            !DealCommitment.verify(
                commitment: commitment, room: "ABCD", round: 1,
                saltHex: "ff0102030405060708090a0b0c0d0e0f", numbers: exampleNumbers))
    }
}
