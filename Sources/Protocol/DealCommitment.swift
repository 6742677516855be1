/// The Queen's game deal commitment: a hash of the secret numbers published at the deal and checkable at the reveal.
///
/// When a round is dealt the host announces `commitment(...)`; at the reveal it announces the numbers and the
/// salt, so anyone can recompute the hash and see that the numbers were not changed after the command.
///
/// The canonical encoding (`partyline-deal-v1`) is these lines joined with a single `\n` (U+000A), with no
/// trailing newline, encoded as UTF-8:
///
///     partyline-deal-v1
///     room=<room code>
///     round=<round number in decimal, no leading zeros>
///     salt=<the 16 salt bytes as 32 lowercase hex digits>
///     <number>=<player name>
///     <number>=<player name>
///     …
///
/// with one `<number>=<player name>` line per numbered player (the Queen has none), sorted by number ascending,
/// numbers in decimal. The room code and names are written verbatim (the host allows no line breaks in them).
/// The commitment is the SHA-256 of those bytes as 64 lowercase hex digits. For example room `ABCD`, round 1,
/// salt `000102030405060708090a0b0c0d0e0f`, Bo = 1, Ana = 2 encode as
/// `partyline-deal-v1\nroom=ABCD\nround=1\nsalt=000102030405060708090a0b0c0d0e0f\n1=Bo\n2=Ana`, which a shell
/// can check with `printf 'partyline-deal-v1\nroom=ABCD\n…\n2=Ana' | sha256sum`.
public enum DealCommitment {
    /// The first line of the encoding; a new format gets a new version line.
    public static let formatVersion = "partyline-deal-v1"

    /// The exact text that is hashed; see the type's documentation for the format.
    ///
    /// `numbers` maps each numbered player's name to their number; `saltHex` is written in lowercase.
    public static func canonicalEncoding(room: String, round: Int, saltHex: String, numbers: [String: Int]) -> String {
        var lines = [formatVersion, "room=\(room)", "round=\(round)", "salt=\(saltHex.lowercased())"]
        let ordered = numbers.sorted { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }
        lines.append(contentsOf: ordered.map { "\($0.value)=\($0.key)" })
        return lines.joined(separator: "\n")
    }

    /// The commitment the host publishes at the deal: SHA-256 of the canonical encoding, in lowercase hex.
    public static func commitment(room: String, round: Int, saltHex: String, numbers: [String: Int]) -> String {
        SHA256.hexDigest(of: canonicalEncoding(room: room, round: round, saltHex: saltHex, numbers: numbers))
    }

    /// Whether the revealed deal matches the `commitment` published when it was dealt (hex case is ignored).
    public static func verify(
        commitment: String, room: String, round: Int, saltHex: String,
        numbers: [String: Int]
    ) -> Bool {
        self.commitment(room: room, round: round, saltHex: saltHex, numbers: numbers) == commitment.lowercased()
    }

    /// The salt bytes as the lowercase hex that goes into the encoding and on the wire.
    public static func saltHex(_ salt: [UInt8]) -> String { SHA256.hexString(salt) }
}
