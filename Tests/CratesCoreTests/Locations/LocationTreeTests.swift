import CratesCore
import Testing

/// The place tree: order, paths, counts, and how a person's name for a place is read.
@Suite("Location tree: names, paths and the rules")
struct LocationTreeTests {
    /// Living Room › Shelf 1 › Crate A, Living Room › Shelf 2 › Crate A (records in it 3),
    /// Living Room › Shelf 2 › Crate B, Garage › Box "7"/10" singles", and a top-level Crate A.
    static let tree = LocationTree([
        .init(id: 1, name: "Living Room", parentID: nil),
        .init(id: 2, name: "Shelf 2", parentID: 1, count: 1),
        .init(id: 3, name: "Shelf 1", parentID: 1),
        .init(id: 4, name: "Crate A", parentID: 3, count: 2),
        .init(id: 5, name: "Crate A", parentID: 2, count: 3),
        .init(id: 6, name: "Crate B", parentID: 2, count: 4),
        .init(id: 7, name: "Garage", parentID: nil),
        .init(id: 8, name: "7\"/10\" singles", parentID: 7),
        .init(id: 9, name: "crate a", parentID: nil),
    ])

    @Test("depth-first from the top, the places in one place by name; paths, depths and totals")
    func order() throws {
        let tree = Self.tree
        #expect(tree.nodes.map(\.id) == [9, 7, 8, 1, 3, 4, 2, 5, 6])
        #expect(tree.nodes.map { tree.depth(of: $0.id) } == [0, 0, 1, 0, 1, 2, 1, 2, 2])
        let crate = try #require(tree.location(5))
        #expect(crate.path == ["Living Room", "Shelf 2", "Crate A"])
        #expect(crate.pathText == "Living Room › Shelf 2 › Crate A")
        #expect(crate.display == "Crate A (Living Room › Shelf 2)")
        #expect(crate.code?.digits == "2900000000056")
        #expect(crate.reference == "#5")
        #expect(tree.location(1)?.display == "Living Room")
        #expect(tree.total(1) == 10 && tree.total(2) == 8 && tree.total(5) == 3 && tree.total(7) == 0)
        #expect(tree.subtree(2) == [2, 5, 6])
        #expect(tree.isWithin(5, 1) && tree.isWithin(5, 5) && !tree.isWithin(1, 5))
        #expect(tree.children(of: nil).map(\.id) == [9, 7, 1])
    }

    @Test("a name in any case, a path from any level with /, > or ›, a whole path from the top winning")
    func resolve() throws {
        let tree = Self.tree
        #expect(try tree.resolve("crate b").id == 6)
        #expect(try tree.resolve("Shelf 2/Crate A").id == 5)
        #expect(try tree.resolve("shelf 1 › crate a").id == 4)
        #expect(try tree.resolve("Living Room > Shelf 2 > Crate A").id == 5)
        #expect(try tree.resolve("Living Room›Shelf 2›Crate A").id == 5)
        #expect(try tree.resolve("  LIVING   room ").id == 1)
        // "Crate A" is a whole path from the top (the room-level one) and the end of two others.
        #expect(try tree.resolve("Crate A").id == 9)
        // A name that holds "/" itself.
        #expect(try tree.resolve("7\"/10\" singles").id == 8)
        #expect(try tree.resolve("Garage/7\"/10\" singles").id == 8)
        #expect(try tree.resolve("#6").id == 6)
        #expect(try tree.resolve("2900000000056").id == 5, "the place's label code, as a scanner types it")
    }

    @Test("unknown, ambiguous, a copy's label and a label with a wrong check digit: each says what would work")
    func resolveErrors() throws {
        let tree = LocationTree(Self.tree.nodes.filter { $0.id != 9 })
        #expect(throws: LocationError.unknown("Kitchen")) { try tree.resolve("Kitchen") }
        #expect(throws: LocationError.unknownID(99)) { try tree.resolve("#99") }
        do {
            _ = try tree.resolve("crate A")
            Issue.record("two places answer to Crate A")
        } catch {
            guard case .ambiguous(_, let places) = error else { throw error }
            #expect(places.map(\.id) == [4, 5])
            #expect(error.description == "“crate A” could be any of 2 places: Living Room › Shelf 1 › Crate A (#4), "
                + "Living Room › Shelf 2 › Crate A (#5); name one by its path (“Shelf 1/Crate A”) or its id (#4 or #5)")
        }
        // "AC/DC" at the top beside DC inside AC: the path "AC/DC" names both, so it is not
        // offered as the way out; both ids are.
        let bands = LocationTree([
            .init(id: 3, name: "AC/DC", parentID: nil), .init(id: 6, name: "AC", parentID: nil), .init(id: 7, name: "DC", parentID: 6),
        ])
        #expect(throws: (any Error).self) { try bands.resolve("AC/DC") }
        do {
            _ = try bands.resolve("AC/DC")
        } catch {
            #expect(error.description == "“AC/DC” could be any of 2 places: AC › DC (#7), AC/DC (#3); name one by its id (#7 or #3)")
        }
        // Two rooms, each with a Shelf 1 holding a Crate A1: "Shelf 1/Crate A1" names both
        // too, so the path offered is one that names one place.
        let rooms = LocationTree([
            .init(id: 1, name: "Living Room", parentID: nil), .init(id: 2, name: "Shelf 1", parentID: 1),
            .init(id: 3, name: "Crate A1", parentID: 2), .init(id: 4, name: "Office", parentID: nil),
            .init(id: 5, name: "Shelf 1", parentID: 4), .init(id: 6, name: "Crate A1", parentID: 5),
        ])
        for text in ["Crate A1", "Shelf 1/Crate A1"] {
            do {
                _ = try rooms.resolve(text)
                Issue.record("two places answer to \(text)")
            } catch {
                #expect(error.description.hasSuffix("name one by its path (“Living Room/Shelf 1/Crate A1”) or its id (#3 or #6)"), "\(error)")
                #expect(try rooms.resolve("Living Room/Shelf 1/Crate A1").id == 3, "the path offered names one place")
            }
        }
        let copy = try #require(LabelCode(kind: .copy, id: 5))
        #expect(throws: LocationError.copyLabel(copy)) { try tree.resolve("2910000000055") }
        #expect(throws: LocationError.label(.checkDigit(kind: .location, id: 5, expected: 6, found: 7))) {
            try tree.resolve("2900000000057")
        }
        #expect(LocationError.label(.checkDigit(kind: .location, id: 5, expected: 6, found: 7)).description
            == "looks like crates location label 5, but its check digit should be 6, got 7: a misread or a typo (read as EAN-13)")
        #expect(LocationError.cycle(place: try #require(tree.location(1)), into: try #require(tree.location(2))).description
            == "cannot put Living Room inside Living Room › Shelf 2: Shelf 2 is inside Living Room")
    }

    @Test("the name rules: not empty, no ›, not too long for a label, not an id or a barcode")
    func names() throws {
        #expect(try LocationName.checked("  Crate A3 ") == "Crate A3")
        #expect(try LocationName.checked("Box 12") == "Box 12")
        #expect(try LocationName.checked("12") == "12", "a short number is a fine name")
        for bad in ["", "   ", "Shelf › 2", "Tab\there", "#17", "2900000000179", "2900000000173", "5099750442227",
                    String(repeating: "x", count: 81)] {
            #expect(throws: LocationError.self, "\(bad)") { try LocationName.checked(bad) }
        }
        do {
            _ = try LocationName.checked(String(repeating: "x", count: 81))
        } catch {
            #expect(error.description.contains("81 characters is too long for a label: a name has at most 80"))
        }
        #expect(LocationName.key("Björk  Shelf") == LocationName.key("bjork shelf"))
    }

    @Test("an imported location joins the place it names, or its missing places are made from the top")
    func importPlacement() {
        let tree = Self.tree
        #expect(tree.placement(forImported: "Crate B") == .existing(6))
        #expect(tree.placement(forImported: "Living Room › Shelf 2 › Crate A") == .existing(5))
        #expect(tree.placement(forImported: "Living Room › Shelf 3 › Crate C") == .create(parent: 1, names: ["Shelf 3", "Crate C"]))
        #expect(tree.placement(forImported: "Metal shelf") == .create(parent: nil, names: ["Metal shelf"]))
        #expect(tree.placement(forImported: "Rock/Pop") == .create(parent: nil, names: ["Rock/Pop"]), "a Discogs folder keeps its /")
        #expect(tree.placement(forImported: " › ") == nil)
        let empty = LocationTree.empty
        #expect(empty.placement(forImported: "A › B") == .create(parent: nil, names: ["A", "B"]))
    }
}
