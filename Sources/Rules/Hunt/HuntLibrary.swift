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

/// Every station hunt the host knows: the built-in demo plus the operator's own.
///
/// Invariants: ids are unique slugs; names are unique once folded; every hunt passed `Hunt.checked()` (so every
/// station has a code). Whole hunts come in through `importHunt`; stations through the station methods, which
/// check the changed hunt as a whole.
public struct HuntLibrary: Sendable, Hashable {
    /// The read-only hunts that ship with the host.
    public let builtinHunts: [Hunt]
    /// The operator's hunts, in the order they were added.
    public private(set) var customHunts: [Hunt] = []

    /// Creates a library of `builtinHunts` and no custom hunts.
    public init(builtinHunts: [Hunt]) { self.builtinHunts = builtinHunts }

    /// The hunts written for the project (`BuiltinHunts`).
    public static let builtins: [Hunt] = BuiltinHunts.hunts.map { entry in
        guard var hunt = try? HuntFile.decode(bytes: Array(entry.json.utf8)) else {
            preconditionFailure("the built-in hunt \(entry.id) does not read")  // held by the content tests
        }
        hunt.id = entry.id
        hunt.isBuiltin = true
        return hunt
    }

    /// Every hunt, built-in hunts first.
    public var hunts: [Hunt] { builtinHunts + customHunts }

    /// The hunt whose id is `id`.
    public func hunt(id: String) -> Hunt? { builtinHunts.first { $0.id == id } ?? customHunts.first { $0.id == id } }

    /// A summary of every hunt.
    public func listHunts() -> [HuntSummary] { hunts.map(HuntSummary.init(hunt:)) }

    // MARK: Editing

    /// Adds a whole hunt (from a file, the data folder or a console edit) with every rule; keeps its id when free.
    @discardableResult
    public mutating func importHunt(_ hunt: Hunt) throws(RuleError) -> String {
        var checked: Hunt
        do {
            checked = try hunt.checked()
        } catch {
            let prefix = error.station.map { "Station \($0 + 1): " } ?? ""
            throw RuleError(
                error.error.code,
                prefix + (prefix.isEmpty ? error.error.message : ContentText.lowercasingFirst(error.error.message)))
        }
        checked.name = try checkedName(checked.name)
        checked.id = ContentNames.keptOrFreshID(hunt.id, name: checked.name) { self.hunt(id: $0) != nil }
        checked.isBuiltin = false
        customHunts.append(checked)
        return checked.id
    }

    /// Creates a custom hunt called `name` with one first station; returns its id.
    @discardableResult
    public mutating func createHunt(named name: String, firstStation: Hunt.Station) throws(RuleError) -> String {
        try importHunt(Hunt(id: "", name: name, stations: [firstStation]))
    }

    /// Renames the custom hunt `id`; its id stays (hall-of-fame records keep their hunt).
    public mutating func renameHunt(_ id: String, to name: String) throws(RuleError) {
        let index = try customIndex(of: id, action: "renamed")
        customHunts[index].name = try checkedName(name, ignoring: id)
    }

    /// Deletes the custom hunt `id`.
    public mutating func deleteHunt(_ id: String) throws(RuleError) {
        customHunts.remove(at: try customIndex(of: id, action: "deleted"))
    }

    /// Copies hunt `id` into a new custom hunt (codes kept), called `name` or "<name> (copy)"; returns its id.
    @discardableResult
    public mutating func copyHunt(_ id: String, named name: String? = nil) throws(RuleError) -> String {
        guard let source = hunt(id: id) else { throw Self.unknownHunt(id) }
        var newName = name ?? "\(source.name) (copy)"
        if name == nil {
            var attempt = 1
            while isNameTaken(newName) {
                attempt += 1
                newName = "\(source.name) (copy \(attempt))"
            }
        }
        return try importHunt(Hunt(id: "", name: newName, stations: source.stations))
    }

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

    static func unknownHunt(_ id: String) -> RuleError {
        RuleError(.unknownHunt, "There is no hunt with the id \"\(id)\". See `hunt list`.")
    }

    /// Applies `change` to the stations of the custom hunt `huntID` and keeps it only when the whole hunt still
    /// keeps every rule.
    private mutating func changeStations(
        of huntID: String, checking index: Int? = nil, _ change: (inout [Hunt.Station]) -> Void
    ) throws(RuleError) {
        let position = try customIndex(of: huntID, action: "changed")
        var hunt = customHunts[position]
        if let index, !hunt.stations.indices.contains(index) {
            throw RuleError(
                .badQuestionIndex,
                "The hunt \"\(hunt.name)\" has no station \(index + 1); its stations are numbered 1 to "
                    + "\(hunt.stations.count).")
        }
        change(&hunt.stations)
        do {
            hunt = try hunt.checked()
        } catch {
            let prefix = error.station.map { "Station \($0 + 1): " } ?? ""
            throw RuleError(error.error.code, prefix + error.error.message)
        }
        customHunts[position] = hunt
    }

    private func isNameTaken(_ name: String, ignoring ignoredID: String? = nil) -> Bool {
        hunts.contains { $0.id != ignoredID && ContentNames.same($0.name, name) }
    }

    private func checkedName(_ name: String, ignoring ignoredID: String? = nil) throws(RuleError) -> String {
        try ContentNames.checked(
            name, noun: "hunt", maximumLength: Hunt.maximumNameLength, badName: .badHunt, taken: .huntNameTaken
        ) { isNameTaken($0, ignoring: ignoredID) }
    }

    private func customIndex(of id: String, action: String) throws(RuleError) -> Int {
        if let builtin = builtinHunts.first(where: { $0.id == id }) {
            throw RuleError(
                .readOnly, "The built-in hunt \"\(builtin.name)\" cannot be \(action); copy it to make your own.")
        }
        guard let index = customHunts.firstIndex(where: { $0.id == id }) else { throw Self.unknownHunt(id) }
        return index
    }
}

extension HuntLibrary: ContentLibrary {
    /// A library of the built-in hunts only.
    public init() { self.init(builtinHunts: Self.builtins) }

    /// The hunts that ship with the host.
    public var builtinItems: [Hunt] { builtinHunts }

    /// The operator's hunts.
    public var customItems: [Hunt] { customHunts }

    /// The hunt with `id`, built in or custom.
    public func item(id: String) -> Hunt? { hunt(id: id) }

    /// Whether `id` names a built-in hunt.
    public func isBuiltin(id: String) -> Bool { builtinHunts.contains { $0.id == id } }

    /// Adds `item` through `importHunt`, with every rule of the library.
    public mutating func add(_ item: Hunt) throws(RuleError) -> String { try importHunt(item) }

    /// Deletes the custom hunt `id` (the built-in hunts and unknown ids are refused).
    public mutating func remove(id: String) throws(RuleError) { try deleteHunt(id) }
}
