import CratesCore
import Foundation
import Synchronization
import Testing

@testable import CratesNet

#if canImport(Glibc)
    import Glibc
#endif

/// A private scratch directory with a short path (Unix socket paths hold 107 bytes), removed
/// by `remove()`.
struct ScratchDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/crates-scan-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ScannerError.system(call: "mkdtemp", path: "/tmp", errno: errno) }
        path = String(cString: made)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The permission bits of a file, or nil when it is not there.
    static func mode(_ path: String) -> UInt32? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt32(info.st_mode) & 0o7777
    }
}

/// Messages a client reported, collected from its thread; tests poll it against a deadline
/// without blocking the cooperative pool.
final class MessageLog: Sendable {
    private let messages = Mutex<[ScanMessage]>([])

    func append(_ message: ScanMessage) { messages.withLock { $0.append(message) } }

    var all: [ScanMessage] { messages.withLock { $0 } }

    var events: [ScanEvent] {
        all.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    var dropped: [ScanLineError] {
        all.compactMap { if case .dropped(let e) = $0 { e } else { nil } }
    }

    /// Waits until `condition` holds over the messages, at most `deadline`; the messages then.
    @discardableResult
    func wait(
        _ what: String, deadline: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
        until condition: ([ScanMessage]) -> Bool
    ) async -> [ScanMessage] {
        let end = ContinuousClock.now.advanced(by: deadline)
        while true {
            let now = ContinuousClock.now
            let snapshot = all
            if condition(snapshot) { return snapshot }
            if now >= end {
                Issue.record("timed out waiting for \(what); got \(snapshot)", sourceLocation: sourceLocation)
                return snapshot
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Polls `condition` until it holds or the deadline passes (one last look after it).
func eventually(_ deadline: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now.advanced(by: deadline)
    while ContinuousClock.now < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

extension ScanEvent {
    static func test(_ data: String, _ symbology: ScanSymbology = .ean13) -> ScanEvent {
        ScanEvent(symbology: symbology, data: data, at: Date(timeIntervalSince1970: 1_795_341_600))
    }
}
