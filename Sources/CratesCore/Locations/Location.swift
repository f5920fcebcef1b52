/// A place in the collection: a room, a shelf, a crate. Places form a tree (a crate on a
/// shelf in a room); each copy is in at most one place.
///
/// Ids are never reused (the store's AUTOINCREMENT), so a printed label never comes to name
/// a place made after its own was removed.
public struct Location: Hashable, Sendable, Identifiable {
    /// The store's id, which the place's label code carries (`LabelCode`, prefix 290).
    public var id: Int64
    public var name: String
    /// The place it is in; nil for a place at the top (a room).
    public var parentID: Int64?
    /// The places it is in, outermost first: ["Living Room", "Shelf 2"]; empty at the top.
    public var ancestors: [String]

    public init(id: Int64, name: String, parentID: Int64? = nil, ancestors: [String] = []) {
        self.id = id
        self.name = name
        self.parentID = parentID
        self.ancestors = ancestors
    }

    /// The separator between the places of a path, as crates shows and exports it.
    public static let separator = " › "

    /// The places from the top down to this one: ["Living Room", "Shelf 2", "Crate A3"].
    public var path: [String] { ancestors + [name] }

    /// "Living Room › Shelf 2 › Crate A3": the whole path, as `crates location list`, the
    /// export's Location column and `crates import` write and read it.
    public var pathText: String { path.joined(separator: Self.separator) }

    /// "Crate A3 (Living Room › Shelf 2)", or "Living Room" at the top: the name first, as
    /// the status line and the details view show a place.
    public var display: String {
        ancestors.isEmpty ? name : "\(name) (\(ancestors.joined(separator: Self.separator)))"
    }

    /// The place's label code (`290` + the id + the GS1 check digit); nil past 9 digits.
    public var code: LabelCode? { LabelCode(kind: .location, id: Int(id)) }

    /// How commands name the place when its name alone would not do: "#17".
    public var reference: String { "#\(id)" }
}
