import CratesCore
import CratesStore
import Foundation

/// The places of the collection, for the commands: `crates location add|list|rename|remove`,
/// `crates move`, and `crates list --location`. Every name a person gives goes through one
/// rule (`LocationReference`: a name, a path such as "Shelf 2/Crate A3", "#17", or a label
/// code), and every message says what would work.
public struct LocationDirectory: Sendable {
    public let store: CollectionStore

    public init(store: CollectionStore) {
        self.store = store
    }

    /// The place `name` names.
    public func resolve(_ name: String) async throws(StoreError) -> Location {
        let tree = try await store.locationTree()
        do {
            return try tree.resolve(name)
        } catch {
            throw .location(error)
        }
    }

    /// `crates location add NAME [--in PARENT]`.
    public func add(_ name: String, in parent: String?) async throws(StoreError) -> Location {
        var parentID: Int64?
        if let parent { parentID = try await resolve(parent).id }
        return try await store.addLocation(name: name, in: parentID)
    }

    /// `crates location rename NAME [NEW-NAME] [--in PARENT | --top]`: a new name, a new
    /// place to be in, or both. Returns the place's listing entry as it now is.
    public func change(_ name: String, to newName: String?, in parent: String?, top: Bool) async throws(StoreError) -> Entry {
        let place = try await resolve(name)
        var move: CollectionStore.LocationParent?
        if let parent {
            move = .inside(try await resolve(parent).id)
        } else if top {
            move = .top
        }
        let changed = try await store.changeLocation(place.id, name: newName, parent: move)
        return try await entries().first { $0.location.id == changed.id } ?? Entry(location: changed)
    }

    // MARK: Listing

    /// One place as `crates location list` prints it.
    public struct Entry: Hashable, Sendable {
        public var location: Location
        /// Copies in the place and in every place inside it: what `crates list --location`
        /// prints for it.
        public var count: Int
        /// 0 at the top.
        public var depth: Int

        public init(location: Location, count: Int = 0, depth: Int? = nil) {
            self.location = location
            self.count = count
            self.depth = depth ?? location.ancestors.count
        }
    }

    /// Every place, depth-first from the top, the places in one place by name.
    public func entries() async throws(StoreError) -> [Entry] {
        let tree = try await store.locationTree()
        return tree.nodes.compactMap { node in
            tree.location(node.id).map { Entry(location: $0, count: tree.total(node.id), depth: tree.depth(of: node.id)) }
        }
    }

    /// The columns of `crates location list`.
    public static let listingColumns = ["id", "code", "count", "path"]

    /// `id  code  count  path`, tab-separated.
    public static func line(_ entry: Entry) -> String {
        TabSeparatedText.line([
            String(entry.location.id), entry.location.code?.digits ?? "", String(entry.count), entry.location.pathText,
        ])
    }

    /// `{"id":…, "name":…, "path":…, "parent":…, "code":…, "count":…}`: `path` is the whole
    /// path ("Living Room › Shelf 2 › Crate A3"), `parent` the id of the place it is in (null
    /// at the top), `code` its label's 13 digits, `count` the copies in it and inside it.
    public static func jsonLine(_ entry: Entry) throws -> String {
        String(decoding: try ExportedRecord.makeJSONEncoder().encode(EntryJSON(entry)), as: UTF8.self)
    }

    // MARK: Removing

    /// What removing a place would take away, for the question asked first.
    public struct Removal: Hashable, Sendable {
        public var location: Location
        /// Copies in the place and the places inside it.
        public var records: Int
        /// Places inside it, at any depth.
        public var places: Int

        /// Whether it holds anything (then the person is asked, or names `--move-to`).
        public var holdsSomething: Bool { records > 0 || places > 0 }

        /// "Crate A3 (Living Room › Shelf 2) holds 12 records and 1 place: remove them all? The
        /// records stay in the collection, in no place."
        public var question: String {
            var held: [String] = []
            if records > 0 { held.append(counted(records, "record")) }
            if places > 0 { held.append(counted(places, "place")) }
            let these = places > 0 ? "it and the places inside it" : "it"
            return "\(location.display) holds \(held.joined(separator: " and ")): remove \(these)? "
                + "The records stay in the collection, in no place (--move-to PLACE moves them instead)."
        }
    }

    /// What `crates location remove NAME` would take away.
    public func removal(of name: String) async throws(StoreError) -> Removal {
        let tree = try await store.locationTree()
        let location: Location
        do {
            location = try tree.resolve(name)
        } catch {
            throw .location(error)
        }
        return Removal(location: location, records: tree.total(location.id), places: tree.subtree(location.id).count - 1)
    }

    /// Removes the place (what it holds into `moveTo`, when given); returns what was done, in
    /// words: "Removed Crate A3 (Living Room › Shelf 2); moved 12 records into Crate A4".
    public func remove(_ location: Location, moveTo: String?) async throws(StoreError) -> String {
        var target: Location?
        if let moveTo { target = try await resolve(moveTo) }
        let removal = try await store.removeLocation(location.id, moveTo: target?.id)
        var done = "Removed \(removal.location.display)"
        if removal.placesRemoved > 0 { done += " and \(counted(removal.placesRemoved, "place")) inside it" }
        var moved: [String] = []
        if removal.recordsMoved > 0 { moved.append(counted(removal.recordsMoved, "record")) }
        if removal.placesMoved > 0 { moved.append(counted(removal.placesMoved, "place")) }
        if let target, !moved.isEmpty { done += "; moved \(moved.joined(separator: " and ")) into \(target.display)" }
        if removal.recordsUnplaced > 0 { done += "; \(counted(removal.recordsUnplaced, "record")) now in no place" }
        return done
    }

    // MARK: Moving records

    /// What `crates move` did.
    public struct Moved: Hashable, Sendable {
        public var location: Location
        public var moved: [Int64]
        /// Ids no record has.
        public var missing: [Int64]

        /// "Moved 2 records into Crate A3 (Living Room › Shelf 2)".
        public var summary: String { "Moved \(counted(moved.count, "record")) into \(location.display)" }
    }

    /// `crates move ID... --to NAME`.
    public func move(_ ids: [Int64], to name: String) async throws(StoreError) -> Moved {
        let location = try await resolve(name)
        let moved = try await store.moveRecords(ids, to: location.id).map(\.recordID)
        let found = Set(moved)
        return Moved(location: location, moved: moved, missing: ids.filter { !found.contains($0) })
    }

    /// A record as `crates move` takes it: its id ("12"), or its copy label ("2910000000124",
    /// typed or scanned). Nil with the reason otherwise.
    public static func recordID(_ text: String) -> Result<Int64, LocationError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.count <= 12, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(trimmed) {
            return .success(id)
        }
        do {
            if let code = try LabelCode.parse(trimmed) {
                guard code.kind == .copy else {
                    return .failure(.badName(text, reason: "this is a place's label (\(code.summary)), not a record's; give a record id"))
                }
                return .success(Int64(code.id))
            }
        } catch {
            if case .checkDigit = error { return .failure(.label(error)) }
        }
        return .failure(.badName(text, reason: "not a record id: give the id `crates list` shows, or a copy's label"))
    }
}

private struct EntryJSON: Encodable {
    let entry: LocationDirectory.Entry

    init(_ entry: LocationDirectory.Entry) { self.entry = entry }

    enum Key: String, CodingKey { case id, name, path, parent, code, count }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(entry.location.id, forKey: .id)
        try c.encode(entry.location.name, forKey: .name)
        try c.encode(entry.location.pathText, forKey: .path)
        try c.encode(entry.location.parentID, forKey: .parent)
        try c.encode(entry.location.code?.digits, forKey: .code)
        try c.encode(entry.count, forKey: .count)
    }
}
