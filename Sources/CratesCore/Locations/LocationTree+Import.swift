extension LocationTree {
    /// Where an imported location goes (an import file's `location` column, a Discogs
    /// export's `CollectionFolder`, or a location from before crates had places).
    public enum Placement: Hashable, Sendable {
        /// A place that is there already.
        case existing(Int64)
        /// Places to make, each inside the one before, the first inside `parent` (nil: at
        /// the top); the copy goes in the last.
        case create(parent: Int64?, names: [String])
    }

    /// An imported location's names, split at "›", each trimmed and at most
    /// `LocationName.maximumLength` characters, the empty ones left out.
    public static func importedPath(_ text: String) -> [String] {
        text.split(separator: "›").map { String($0.trimmingWhitespace().prefix(LocationName.maximumLength)) }
            .filter { !$0.isEmpty }
    }

    /// The rule for an imported location, a place's path ("Living Room › Shelf 2 › Crate A3",
    /// as `crates export` writes it) or a name (a Discogs folder): it joins the place it names
    /// when exactly one place answers to it, as `crates move --to` would find it; otherwise it
    /// is a whole path from the top, split at "›", and the places of it that are not there
    /// yet are made. Names are kept as the file has them (trimmed, at most
    /// `LocationName.maximumLength` characters). Nil for an empty text.
    public func placement(forImported text: String) -> Placement? {
        let names = Self.importedPath(text)
        guard !names.isEmpty else { return nil }
        if let found = try? resolve(.name(String(text.trimmingWhitespace()))) { return .existing(found.id) }
        var parent: Int64?
        for (index, name) in names.enumerated() {
            guard let next = child(named: name, in: parent) else {
                return .create(parent: parent, names: Array(names[index...]))
            }
            parent = next.id
        }
        return parent.map(Placement.existing)
    }
}
