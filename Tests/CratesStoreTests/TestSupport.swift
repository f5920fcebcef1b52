import CratesCore
import CratesStore
import Foundation
import Testing

/// A valid EAN-13 made from `n`: "50", ten digits, and the GS1 check digit.
func makeGTIN(_ n: Int) -> GTIN {
    let body = "50" + String(repeating: "0", count: max(0, 10 - String(n).count)) + String(n)
    let digits = body.compactMap(\.wholeNumberValue)
    // GS1 General Specifications §7.9: weights 3, 1, 3, … from the rightmost data digit.
    let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
    guard let gtin = GTIN(canonical: body + String((10 - sum % 10) % 10)) else {
        preconditionFailure("test GTIN \(body) is invalid")
    }
    return gtin
}

func release(_ id: Int, artist: String = "Artist", title: String = "Title", genres: [String] = ["Rock"]) -> Release {
    Release(
        id: id, artist: artist, title: title, genres: genres, styles: ["Indie"], formats: ["CD, Album"],
        year: 1997, country: "UK", labels: [.init(name: "One Little Indian", catno: "TPLP \(id)")],
        url: "https://www.discogs.com/release/\(id)", thumbURL: nil, rawJSON: "{\"id\": \(id)}")
}

/// A directory of its own under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "crates-store-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Where a test's store lives: both kinds must behave the same.
enum StoreKind: String, CaseIterable, Sendable {
    case memory, file

    /// A new, empty store; `directory` keeps a file store's directory alive.
    func make() throws -> (CatalogueStore, TemporaryDirectory?) {
        switch self {
        case .memory:
            return (try CatalogueStore.inMemory(), nil)
        case .file:
            let directory = try TemporaryDirectory()
            return (try CatalogueStore(path: directory.file("crates.sqlite")), directory)
        }
    }
}


/// Polls `condition` until it holds or `seconds` pass. Every wait in a test has a deadline.
func eventually(within seconds: Double = 5, _ condition: @Sendable () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return try await condition()
}

/// Values handed over from a background queue (an observer's callback) to the test.
final class Inbox<Value: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: `values` is only touched while holding `lock`.
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        values.append(value)
    }

    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    var last: Value? { all.last }
}

/// The outline's counts (kept by triggers) must agree with the rows themselves.
func expectOutlineMatchesSections(_ store: CatalogueStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let sections = try await store.sections()
    let outline = try await store.outline()
    #expect(outline.sections.map(\.name) == sections.map(\.name), sourceLocation: sourceLocation)
    #expect(outline.sections.map(\.count) == sections.map(\.rows.count), sourceLocation: sourceLocation)
}
