import ArgumentParser
import CratesCore
import CratesStore
import CratesApp

/// The query a command takes after its options (`crates list artist:queen year:1970..1979`):
/// words and `field:value` terms, read by `RecordQuery(arguments:)`. A term crates cannot
/// read, or one the collection cannot answer (a place it does not have), is a usage error:
/// said with the term and what its field takes, exit 64.
struct QueryArguments: ParsableArguments {
    // Every argument left over, dashes and all: `-lent:` is a negated term, not an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp(
        "Only the records the query keeps: words (found as the UI's filter finds them) and field:value terms "
            + "(\(RecordQueryError.fieldList)); -term negates; see the README's table.",
        valueName: "query"))
    var terms: [String] = []

    init() {}

    init(terms: [String]) {
        self.terms = terms
    }

    func validate() throws {
        _ = try query()
    }

    /// The query the arguments say.
    func query() throws -> RecordQuery {
        // An option mistyped (`--jsn`) is not a term: taken as one, it would filter silently.
        if let option = terms.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
            throw ValidationError("unknown option \(option)")
        }
        do {
            return try RecordQuery(arguments: terms)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Runs `body`, a refusal of a query term by the store (a place it does not have, a field
    /// it cannot answer) said as a usage error is, exit 64.
    static func answering<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch StoreError.query(let error) {
            throw ExitCode.failing(error.description, 64)
        }
    }
}

/// The records a command that acts on records is given (`delete`, `move`): a query's
/// (`--query`), else each id or copy label; one that names none is said on standard error.
struct NamedRecords {
    var ids: [Int64] = []
    /// Some id or label named no record.
    var failed = false

    /// Reads the records `arguments` name, in `store`; nil (after saying "No record matches:
    /// nothing VERB") when a query keeps none.
    static func read(
        _ arguments: [String], query: Bool, in store: CollectionStore, command: String, verb: String
    ) throws -> NamedRecords? {
        var named = NamedRecords()
        if query {
            let query = try QueryArguments(terms: arguments).query()
            named.ids = try blocking { try await store.recordIDs(matching: query) }
            if named.ids.isEmpty {
                try StandardStreams.out("No record matches: nothing \(verb)\n")
                return nil
            }
            return named
        }
        for text in arguments {
            switch LocationDirectory.recordID(text) {
            case .success(let id): named.ids.append(id)
            case .failure(let error):
                named.failed = true
                StandardStreams.errLine("crates \(command): \(error)")
            }
        }
        return named
    }
}
