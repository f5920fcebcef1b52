import GRDB

@testable import CratesStore

/// A collection file as an older crates left it, for the tests of what this build does when it
/// opens one: this build's migrations (or the ones a test names, as a branch had them) run up
/// to `version`, then `older` writes what that crates would have written. The file is closed
/// before this returns, so the store under test opens it as a user's would be opened.
enum OlderCollection {
    typealias Migrations = [(identifier: String, migrate: @Sendable (Database) throws -> Void)]

    static func make(
        at path: String, upTo version: String? = nil, migrations: Migrations = Schema.migrations,
        _ older: (DatabaseQueue) async throws -> Void = { _ in }
    ) async throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let migrator = Schema.migrator(migrations)
        if let version { try migrator.migrate(queue, upTo: version) } else { try migrator.migrate(queue) }
        try await older(queue)
    }
}
