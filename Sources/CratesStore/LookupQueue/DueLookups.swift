import CratesCore
import GRDB

/// A record's lookup state is stored as its raw value ("pending", "lookingUp", …) and bound
/// as a value in every statement, never spelt in SQL, where a misspelt state would be a
/// state no record has. The migration "v13 lookup state check" refuses any other text.
extension LookupState: DatabaseValueConvertible {}

/// Which records a lookup worker would claim now, in the order it claims them: pending ones,
/// oldest first; failed ones whose retry time has come, soonest first; then claims whose
/// lease has run out or whose claimer is gone (`ClaimOwner`: a process killed -9 frees its
/// claim at once). One rule for the claim (`claimNext`) and for the count an import drains
/// to zero (`dueLookups`), so that the two never disagree. Each part walks the
/// `record_queue` index (lookupState, retryAt).
enum DueLookups {
    struct Part {
        /// A condition on `record`.
        var condition: String
        /// The order of the claim within the part.
        var order: String
        var arguments: StatementArguments
    }

    /// The parts in the order of the claim, at `now` (seconds since 1970). `retryTimes`
    /// false: a failed record is due whatever its retry time.
    static func parts(now: Double, retryTimes: Bool = true) -> [Part] {
        [
            Part(condition: "lookupState = ?", order: "retryAt, id", arguments: [LookupState.pending]),
            retryTimes
                ? Part(
                    condition: "lookupState = ? AND (retryAt IS NULL OR retryAt <= ?)", order: "retryAt, id",
                    arguments: [LookupState.failed, now])
                : Part(condition: "lookupState = ?", order: "retryAt, id", arguments: [LookupState.failed]),
            Part(
                condition: "lookupState = ? AND (claimedUntil IS NULL OR claimedUntil <= ? OR crates_claim_dead(claimOwner))",
                order: "claimedUntil, id", arguments: [LookupState.lookingUp, now]),
        ]
    }

    /// How many records are due at `now`: one count per part, added.
    static func count(now: Double) -> (sql: String, arguments: StatementArguments) {
        let parts = parts(now: now)
        let sql = "SELECT " + parts.map { "(SELECT COUNT(*) FROM record WHERE \($0.condition))" }.joined(separator: " + ")
        return (sql, parts.reduce(into: StatementArguments()) { $0 += $1.arguments })
    }

    /// The records the catalogue pass answers at `now`, as one condition: those due, but a
    /// failed record whatever its retry time. The retry time paces the requests to Discogs
    /// after a failure; the catalogue costs no request, so it is asked at once.
    static func catalogue(now: Double) -> (condition: String, arguments: StatementArguments) {
        let parts = parts(now: now, retryTimes: false)
        return (
            "(" + parts.map { "(\($0.condition))" }.joined(separator: " OR ") + ")",
            parts.reduce(into: StatementArguments()) { $0 += $1.arguments }
        )
    }
}
