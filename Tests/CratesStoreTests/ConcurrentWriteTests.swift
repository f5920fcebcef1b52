import CratesCore
import CratesStore
import Foundation
import Testing

/// Several processes adding to one database file at once (issue 12, item 1): the check "is
/// it there already?" and the insert are one write transaction, so imports of the same list
/// at once, and adds of one barcode at once, store each barcode the wanted number of times.
///
/// Real processes (`crates-bench import|add`, through the store's API as the commands use
/// it), started together: each opens the store and reads its file, says `ready`, and waits
/// for the test's go, so that their writes overlap. Several trials each, since a race does
/// not show every time. With `CRATES_TEST_RACY=1` the drivers work the way crates did before
/// (count, then add, in two transactions), and these tests fail: that is how they were
/// checked to catch the bug.
@Suite(.serialized) struct ConcurrentWriteTests {
    static let trials = 8
    private var racy: [String] { ProcessInfo.processInfo.environment["CRATES_TEST_RACY"] == "1" ? ["--racy", "1"] : [] }

    /// Starts the drivers, waits until each is ready, lets them all go at once, and returns
    /// their result lines after checking that each exited with status 0.
    private func race(_ runs: [[String]], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let drivers = try runs.map { try DriverProcess($0 + ["--wait", "1"] + racy) }
        for driver in drivers {
            let ready = await driver.line(startingWith: "ready")
            #expect(ready != nil, "a driver never got ready: \(driver.lines.all)", sourceLocation: sourceLocation)
        }
        for driver in drivers { driver.send("go") }
        var results: [String] = []
        for driver in drivers {
            let status = await driver.exitStatus()
            #expect(status == 0, "driver output: \(driver.lines.all)", sourceLocation: sourceLocation)
            results.append(driver.lines.all.last ?? "")
        }
        return results
    }

    /// 100 lines: 75 barcodes, 15 of them listed twice and 5 three times, in a shuffled order.
    private func list(seed: UInt64) -> (text: String, wanted: [GTIN: Int]) {
        var wanted: [GTIN: Int] = [:]
        var lines: [GTIN] = []
        for n in 0..<75 {
            let gtin = makeGTIN(9_000 + n)
            let copies = n < 5 ? 3 : n < 20 ? 2 : 1
            wanted[gtin] = copies
            lines += Array(repeating: gtin, count: copies)
        }
        var generator = SeededGenerator(seed: seed)
        lines.shuffle(using: &generator)
        return (lines.map(\.canonical).joined(separator: "\n") + "\n", wanted)
    }

    @Test func concurrentImportsOfOneListStoreEachBarcodeTheWantedNumberOfTimes() async throws {
        for trial in 0..<Self.trials {
            let directory = try TemporaryDirectory()
            let path = directory.file("crates.sqlite")
            let store = try CatalogueStore(path: path)
            let (text, wanted) = list(seed: UInt64(trial + 1))
            let file = directory.file("100.txt")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            // One copy of a barcode listed three times is there already: two more are wanted.
            let early = try #require(wanted.first { $0.value == 3 }?.key)
            _ = try await store.add(NewRecord(gtin: early, addMethod: .typed))

            let results = try await race(Array(repeating: ["import", "--db", path, "--file", file], count: 3))
            let added = results.compactMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
            #expect(added.count == 3, "results: \(results)")
            #expect(added.reduce(0, +) == 99, "trial \(trial): \(results)")
            #expect(try await store.outline().rowCount == 100, "trial \(trial)")
            for (gtin, copies) in wanted {
                #expect(try await store.copies(of: gtin) == copies, "trial \(trial): \(gtin)")
            }
        }
    }

    @Test func fourConcurrentAddsOfOneBarcodeStoreOneCopy() async throws {
        let gtin = try #require(GTIN(canonical: "5099750442227"))
        for trial in 0..<Self.trials {
            let directory = try TemporaryDirectory()
            let path = directory.file("crates.sqlite")
            let store = try CatalogueStore(path: path)
            let results = try await race(Array(repeating: ["add", "--db", path, "--gtin", gtin.canonical], count: 4))
            #expect(results.count(where: { $0.hasPrefix("added ") }) == 1, "trial \(trial): \(results)")
            #expect(results.count(where: { $0 == "present 1" }) == 3, "trial \(trial): \(results)")
            #expect(try await store.copies(of: gtin) == 1, "trial \(trial)")
        }
    }

    /// Two imports and an add of one of the list's barcodes: the add's copy counts towards
    /// the list's, as in the "three imports plus a crates add".
    @Test func importsAndAnAddAtOnce() async throws {
        for trial in 0..<Self.trials {
            let directory = try TemporaryDirectory()
            let path = directory.file("crates.sqlite")
            let store = try CatalogueStore(path: path)
            let (text, wanted) = list(seed: UInt64(100 + trial))
            let file = directory.file("100.txt")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let single = try #require(wanted.first { $0.value == 1 }?.key)
            _ = try await race([
                ["import", "--db", path, "--file", file], ["add", "--db", path, "--gtin", single.canonical],
                ["import", "--db", path, "--file", file],
            ])
            #expect(try await store.outline().rowCount == 100, "trial \(trial)")
            for (gtin, copies) in wanted {
                #expect(try await store.copies(of: gtin) == copies, "trial \(trial): \(gtin)")
            }
        }
    }
}

/// SplitMix64, for seeded shuffles.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
