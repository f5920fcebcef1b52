import ArgumentParser
import CratesApp
import Foundation

/// `crates delete ID...`: takes copies out of the collection, asking first.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Take copies out of the collection (a record added by mistake), asking first.",
        discussion: """
            Each ID is a record's id (the first column of `crates list`) or its copy label \
            (291…, typed or scanned); with --query, the arguments are a query instead, as \
            `crates list` takes it, and every record it keeps is deleted. crates names the \
            copies (title, place, grades) and asks (y/N) before deleting them; --yes deletes \
            without asking, for scripts.

            A copy that `crates sync` had linked to your Discogs collection stays there: on \
            a terminal crates then asks whether to remove it from Discogs too (as the \
            collection UI offers); otherwise it says so, and `crates sync --delete` removes \
            it there later (`crates sync` lists it meanwhile).

            Exit status:
              0  every copy named was deleted (with --query: none kept, nothing to delete)
              1  an ID names no copy (the others are deleted), or the answer was no
              3  the removal from Discogs: not signed in, or refused
              4  the removal from Discogs: Discogs could not be reached (the copies are
                 deleted here; `crates sync --delete` removes them there later)
              64 a query term crates cannot read

            Examples:
              crates delete 12
              crates delete 12 13 --yes
              crates delete --query state:notFound added:..1d
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Delete without asking.")
    var yes = false

    // Every argument left over, dashes and all: with --query, `-lent:` is a negated term.
    @Argument(parsing: .allUnrecognized, help: "Record ids, or copy labels (with --query: a query).")
    var ids: [String] = []

    @Flag(help: "Delete the records a query keeps (the arguments are words and field:value terms, as crates list takes them).")
    var query = false

    func validate() throws {
        if query {
            _ = try QueryArguments(terms: ids).query()
        } else if ids.isEmpty {
            throw ValidationError("give the copies to delete: ids or copy labels, or --query and a query")
        } else if let option = ids.first(where: { $0.hasPrefix("-") }) {
            throw ValidationError("unknown option \(option)")
        }
    }

    func run() throws {
        try QueryArguments.answering { try delete() }
    }

    private func delete() throws {
        let store = try self.store.open()
        guard let named = try NamedRecords.read(ids, query: query, in: store, command: "delete", verb: "deleted") else { return }
        var failed = named.failed
        let deletion = CopyDeletion(store: store)
        let chosen = named.ids
        let (found, missing) = try blocking { try await deletion.targets(chosen) }
        for id in missing {
            failed = true
            StandardStreams.errLine("crates delete: record \(id) is not in the collection")
        }
        guard !found.isEmpty else { throw ExitCode(1) }
        if !yes {
            let what = found.count == 1 ? "this copy" : "these \(found.count) copies"
            StandardStreams.errLine("Delete \(what) from the collection?")
            for target in found { StandardStreams.errLine("  \(target.description)") }
            guard StandardStreams.confirmed() else { throw CLIError("nothing deleted") }
        }
        let targets = found.map(\.id)
        let outcome = try blocking { try await deletion.delete(targets) }
        try StandardStreams.out(lines: outcome.deleted.map { "deleted \($0)" })
        if failed { throw ExitCode(1) }
        guard !outcome.onDiscogs.isEmpty else { return }
        guard isatty(STDIN_FILENO) == 1 else {
            StandardStreams.errLine("crates delete: \(outcome.stillOnDiscogsNotice)")
            return
        }
        let (fact, question) = outcome.stillOnDiscogsQuestion
        StandardStreams.errLine(fact)
        StandardStreams.err(question)
        guard StandardStreams.confirmed() else {
            StandardStreams.errLine(outcome.keptOnDiscogs)
            return
        }
        let access = try DiscogsAccess.signedIn()
        let instances = outcome.onDiscogs
        let report = try blocking { await deletion.removeFromDiscogs(instances, access: access) }
        if let failure = report.failure {
            throw ExitCode.failing("not removed from Discogs: \(failure); `crates sync --delete` removes it later", failure.exitStatus)
        }
        for notice in report.notices { StandardStreams.errLine("crates delete: \(notice)") }
        try StandardStreams.out("removed from Discogs: \(report.removedThere)\n")
    }
}
