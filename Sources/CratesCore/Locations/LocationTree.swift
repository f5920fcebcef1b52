/// Every place of the collection at one moment, with how many copies each holds: what the
/// commands name places against, what `L` in the collection UI shows, and what `crates
/// location list` prints. Small (a collection has tens or hundreds of places), so it is read
/// whole.
public struct LocationTree: Hashable, Sendable {
    /// One place as stored.
    public struct Node: Hashable, Sendable, Identifiable {
        public var id: Int64
        public var name: String
        public var parentID: Int64?
        /// Copies in this place itself, not in the places inside it.
        public var count: Int

        public init(id: Int64, name: String, parentID: Int64?, count: Int = 0) {
            self.id = id
            self.name = name
            self.parentID = parentID
            self.count = count
        }
    }

    /// Depth-first from the top, the places in one place by name: the order of the tree
    /// view and of `crates location list`.
    public let nodes: [Node]
    /// Each node's depth (0 at the top), by id.
    private let depths: [Int64: Int]
    private let indices: [Int64: Int]
    private let childIDs: [Int64: [Int64]]
    private let rootIDs: [Int64]
    /// Copies in each place and every place inside it, by id.
    private let totals: [Int64: Int]

    public init(_ unordered: [Node]) {
        var byID: [Int64: Node] = [:]
        for node in unordered { byID[node.id] = node }
        func sorted(_ ids: [Int64]) -> [Int64] {
            ids.sorted { lhs, rhs in
                let (l, r) = (LocationName.key(byID[lhs]?.name ?? ""), LocationName.key(byID[rhs]?.name ?? ""))
                return l != r ? l < r : lhs < rhs
            }
        }
        var children: [Int64: [Int64]] = [:]
        var roots: [Int64] = []
        for node in unordered {
            // A parent that is not there (a damaged file) puts the place at the top.
            if let parent = node.parentID, byID[parent] != nil, parent != node.id {
                children[parent, default: []].append(node.id)
            } else {
                roots.append(node.id)
            }
        }
        for (parent, ids) in children { children[parent] = sorted(ids) }
        roots = sorted(roots)

        var ordered: [Node] = []
        var depths: [Int64: Int] = [:]
        var totals: [Int64: Int] = [:]
        // Depth-first; a cycle (a damaged file) is cut where it closes.
        func visit(_ id: Int64, depth: Int) -> Int {
            guard depths[id] == nil, let node = byID[id] else { return 0 }
            depths[id] = depth
            ordered.append(node)
            var total = node.count
            for child in children[id] ?? [] { total += visit(child, depth: depth + 1) }
            totals[id] = total
            return total
        }
        for root in roots { _ = visit(root, depth: 0) }
        // Places on a cycle that never reach the top: shown at the top rather than lost.
        for node in unordered where depths[node.id] == nil {
            roots.append(node.id)
            _ = visit(node.id, depth: 0)
        }
        nodes = ordered
        self.depths = depths
        self.totals = totals
        childIDs = children
        rootIDs = roots
        var indices: [Int64: Int] = [:]
        for (index, node) in ordered.enumerated() { indices[node.id] = index }
        self.indices = indices
    }

    /// No places at all.
    public static let empty = LocationTree([])

    public var isEmpty: Bool { nodes.isEmpty }

    public func node(_ id: Int64) -> Node? { indices[id].map { nodes[$0] } }

    /// 0 at the top, 1 inside a top-level place…
    public func depth(of id: Int64) -> Int { depths[id] ?? 0 }

    /// Copies in the place and in every place inside it.
    public func total(_ id: Int64) -> Int { totals[id] ?? 0 }

    /// The places directly inside `parent` (at the top for nil), by name.
    public func children(of parent: Int64?) -> [Node] {
        (parent.map { childIDs[$0] ?? [] } ?? rootIDs).compactMap(node)
    }

    /// The place with its path; nil when there is no such place.
    public func location(_ id: Int64) -> Location? {
        guard let node = node(id) else { return nil }
        var ancestors: [String] = []
        var seen: Set<Int64> = [id]
        var parent = node.parentID
        // Read up the tree, then turned round: inserting at the front made a deep chain's
        // paths quadratic in its depth.
        while let current = parent, let above = self.node(current), seen.insert(current).inserted {
            ancestors.append(above.name)
            parent = above.parentID
        }
        return Location(
            id: id, name: node.name, parentID: node.parentID.flatMap { self.node($0)?.id }, ancestors: ancestors.reversed())
    }

    /// The ids of the places from the top down to `id` (`id` last): their label codes, as
    /// crates' CSV export writes them beside the path. Empty for a place the tree lacks.
    public func pathIDs(_ id: Int64) -> [Int64] {
        guard node(id) != nil else { return [] }
        var ids: [Int64] = [id]
        var seen: Set<Int64> = [id]
        var parent = node(id)?.parentID
        while let current = parent, let above = node(current), seen.insert(current).inserted {
            ids.append(above.id)
            parent = above.parentID
        }
        return ids.reversed()
    }

    /// The place and every place inside it, the place first.
    public func subtree(_ id: Int64) -> [Int64] {
        guard node(id) != nil else { return [] }
        var ids: [Int64] = []
        var stack = [id]
        var seen: Set<Int64> = []
        while let current = stack.popLast() {
            guard seen.insert(current).inserted else { continue }
            ids.append(current)
            stack += (childIDs[current] ?? []).reversed()
        }
        return ids
    }

    /// Whether `id` is `ancestor` or inside it.
    public func isWithin(_ id: Int64, _ ancestor: Int64) -> Bool {
        var current: Int64? = id
        var steps = 0
        while let place = current, steps <= nodes.count {
            if place == ancestor { return true }
            current = node(place)?.parentID
            steps += 1
        }
        return false
    }

    /// The place directly inside `parent` (nil: at the top) whose name compares equal to
    /// `name` (`LocationName.key`).
    public func child(named name: String, in parent: Int64?) -> Node? {
        let key = LocationName.key(name)
        return children(of: parent).first { LocationName.key($0.name) == key }
    }

    // MARK: Naming places

    /// The place `text` names (see `LocationReference`).
    public func resolve(_ text: String) throws(LocationError) -> Location {
        try resolve(LocationReference.parse(text))
    }

    /// The place `reference` names: an id that exists, or a name or path that exactly one
    /// place answers to. A whole path from the top wins over a shorter one ("Crate A" names
    /// the top-level Crate A even when shelves hold others).
    public func resolve(_ reference: LocationReference) throws(LocationError) -> Location {
        switch reference {
        case .id(let id):
            guard let location = location(id) else { throw .unknownID(id) }
            return location
        case .name(let text):
            let (whole, any) = matches(text)
            if whole.count == 1, let location = location(whole[0]) { return location }
            if any.count == 1, let location = location(any[0]) { return location }
            if any.isEmpty { throw .unknown(text) }
            throw .ambiguous(text, any.compactMap(location))
        }
    }

    /// The places `text` answers to as a name or path: those whose whole path it is, and
    /// those whose path it ends (a name alone is the shortest ending), in tree order.
    func matches(_ text: String) -> (whole: [Int64], any: [Int64]) {
        let wanted = LocationName.key(text)
        guard !wanted.isEmpty else { return ([], []) }
        var whole: [Int64] = []
        var any: [Int64] = []
        for node in nodes {
            guard let path = location(node.id)?.path.map(LocationName.key) else { continue }
            // Cheap test first: the text must end with the place's own name.
            guard wanted.hasSuffix(path[path.count - 1]) else { continue }
            for start in path.indices where Self.joined(wanted[...], matches: path[start...]) {
                if start == 0 { whole.append(node.id) }
                any.append(node.id)
                break
            }
        }
        return (whole, any)
    }

    /// Whether `text` is `segments` joined by path separators, with spaces around them or
    /// not. Names may hold "/" or ">" themselves, so the text is matched against the names
    /// rather than split.
    static func joined(_ text: Substring, matches segments: ArraySlice<String>) -> Bool {
        guard let first = segments.first, text.hasPrefix(first) else { return false }
        var rest = text.dropFirst(first.count)
        if segments.count == 1 { return rest.isEmpty }
        rest = rest.drop { $0 == " " }
        guard let separator = rest.first, LocationReference.separators.contains(separator) else { return false }
        rest = rest.dropFirst().drop { $0 == " " }
        return joined(rest, matches: segments.dropFirst())
    }
}
