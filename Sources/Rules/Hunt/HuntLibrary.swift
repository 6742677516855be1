import Common

/// One row of the hunt list an operator sees.
public struct HuntSummary: Codable, Sendable, Hashable, Identifiable {
    /// The hunt's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Whether it ships with the host.
    public var isBuiltin: Bool
    /// How many stations it has.
    public var stationCount: Int

    /// Summarises `hunt`.
    public init(hunt: Hunt) {
        id = hunt.id
        name = hunt.name
        isBuiltin = hunt.isBuiltin
        stationCount = hunt.stations.count
    }
}

/// Every station hunt the host knows: the built-in demo plus the operator's own, on a `ContentShelf`.
///
/// Invariants: those of the shelf, and every hunt passed `Hunt.checked()` (so every station has a code). Whole
/// hunts come in through `add`; stations through the station methods, which check the changed hunt as a
/// whole.
public struct HuntLibrary: ShelvedLibrary, Hashable {
    /// The built-in and custom hunts.
    public private(set) var shelf: ContentShelf<Hunt>

    /// Creates a library of `builtinHunts` and no custom hunts.
    public init(builtinHunts: [Hunt]) { shelf = ContentShelf(builtinItems: builtinHunts) }

    /// A library of the built-in hunts only.
    public init() { self.init(builtinHunts: Self.builtins) }

    /// The hunts written for the project (`BuiltinHunts`).
    public static let builtins: [Hunt] = BuiltinHunts.hunts.map { entry in
        guard var hunt = try? HuntFile.decode(bytes: Array(entry.json.utf8)) else {
            preconditionFailure("the built-in hunt \(entry.id) does not read")  // held by the content tests
        }
        hunt.id = entry.id
        hunt.isBuiltin = true
        return hunt
    }

    // MARK: Hunts (the shelf's, in the words of hunts)

    /// Every hunt, built-in hunts first.
    public var hunts: [Hunt] { shelf.items }

    /// The hunt whose id is `id`.
    public func hunt(id: String) -> Hunt? { shelf.item(id: id) }

    /// A summary of every hunt.
    public func listHunts() -> [HuntSummary] { hunts.map(HuntSummary.init(hunt:)) }

    /// Adds a whole hunt (from a file, the data folder or a console edit) with every rule; keeps its id when free.
    @discardableResult
    public mutating func add(_ hunt: Hunt) throws(RuleError) -> String {
        let checked: Hunt
        do {
            checked = try hunt.checked()
        } catch {
            let prefix = error.station.map { "Station \($0 + 1): " } ?? ""
            throw RuleError(
                error.error.code,
                prefix + (prefix.isEmpty ? error.error.message : ContentText.lowercasingFirst(error.error.message)))
        }
        return try shelf.add(checked)
    }

    /// Creates a custom hunt called `name` with one first station; returns its id.
    @discardableResult
    public mutating func createHunt(named name: String, firstStation: Hunt.Station) throws(RuleError) -> String {
        try add(Hunt(id: "", name: name, stations: [firstStation]))
    }

    /// Renames the custom hunt `id`; its id stays (hall-of-fame records keep their hunt).
    public mutating func renameHunt(_ id: String, to name: String) throws(RuleError) { try shelf.rename(id, to: name) }

    /// Deletes the custom hunt `id`.
    public mutating func deleteHunt(_ id: String) throws(RuleError) { try shelf.delete(id) }

    /// Deletes the custom hunt `id` (the `ContentLibrary` word for `deleteHunt`).
    public mutating func remove(id: String) throws(RuleError) { try shelf.delete(id) }

    /// Copies hunt `id` into a new custom hunt (codes kept), called `name` or "<name> (copy)"; returns its id.
    @discardableResult
    public mutating func copyHunt(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        let source = try shelf.existing(id)
        return try add(Hunt(id: "", name: shelf.copyName(of: source, named: name), stations: source.stations))
    }

    // MARK: Stations

    /// Appends `station` to the custom hunt `huntID` (a code is generated when it has none).
    public mutating func addStation(_ station: Hunt.Station, toHunt huntID: String) throws(RuleError) {
        try changeStations(of: huntID) { $0.append(station) }
    }

    /// Replaces station `index` (0-based) of the custom hunt `huntID`.
    public mutating func replaceStation(at index: Int, inHunt huntID: String, with station: Hunt.Station)
        throws(RuleError)
    {
        try changeStations(of: huntID, checking: index) { $0[index] = station }
    }

    /// Removes station `index` (0-based) of the custom hunt `huntID`; the last station cannot go.
    public mutating func removeStation(at index: Int, fromHunt huntID: String) throws(RuleError) {
        try changeStations(of: huntID, checking: index) { $0.remove(at: index) }
    }

    /// Moves station `index` to `newIndex` (0-based) in the custom hunt `huntID`.
    public mutating func moveStation(at index: Int, to newIndex: Int, inHunt huntID: String) throws(RuleError) {
        try changeStations(of: huntID, checking: index) { stations in
            let station = stations.remove(at: index)
            stations.insert(station, at: min(max(0, newIndex), stations.count))
        }
    }

    // MARK: Rules

    /// Applies `change` to the stations of the custom hunt `huntID` and keeps it only when the whole hunt still
    /// keeps every rule.
    private mutating func changeStations(
        of huntID: String, checking index: Int? = nil, _ change: (inout [Hunt.Station]) -> Void
    ) throws(RuleError) {
        try shelf.change(huntID) { (hunt: inout Hunt) throws(RuleError) in
            if let index {
                try ContentNames.checkIndex(
                    index, count: hunt.stations.count, of: "station", in: "The hunt \"\(hunt.name)\"")
            }
            change(&hunt.stations)
            do throws(Hunt.Problem) {
                hunt = try hunt.checked()
            } catch {
                let prefix = error.station.map { "Station \($0 + 1): " } ?? ""
                throw RuleError(error.error.code, prefix + error.error.message)
            }
        }
    }
}

extension Hunt: ShelfItem {
    /// What refusals call a hunt.
    public static let shelfNoun = "hunt"

    /// `name` trimmed, once it has a letter or digit and fits `Hunt.maximumNameLength` on one line.
    public static func checkedName(_ name: String) throws(RuleError) -> String {
        try ContentNames.checkedName(name, noun: shelfNoun, maximumLength: maximumNameLength, badName: .badHunt)
    }

    /// "There is already a hunt called …".
    public static func nameTakenRefusal(_ name: String) -> RuleError {
        ContentNames.takenRefusal(name, noun: shelfNoun, code: .huntNameTaken)
    }

    /// "There is no hunt with the id …".
    public static func unknownIDRefusal(_ id: String, among ids: [String]) -> RuleError {
        RuleError(.unknownHunt, "There is no hunt with the id \"\(id)\". See `hunt list`.")
    }
}
