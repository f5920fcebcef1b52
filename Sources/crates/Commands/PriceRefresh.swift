import CratesApp

/// `crates value --refresh` and `crates want list --refresh`: Discogs' marketplace figures
/// asked again at background priority, with the sync's bar, as the command's root task (a
/// signal stops it, the figures asked so far kept); its messages said after `crates
/// COMMAND:`. Returns its exit status.
enum PriceRefresh {
    static let stopping = "Stopping: the figures asked so far are kept (Ctrl-C again to quit at once)"

    static func run(
        _ command: String, stop: StopRequest,
        _ refresh: @escaping @Sendable (DiscogsAccess, @escaping @Sendable (_ done: Int, _ total: Int) -> Void) async
            -> CollectionValuation.Outcome
    ) throws -> Int32 {
        let access = try DiscogsAccess.signedIn()
        let progress = SyncProgressLine(limiter: access.client.rateLimiter, priority: CollectionValuation.priority)
        let outcome = try stop.run {
            let outcome = await refresh(access) { done, total in progress.show(.pricing(done: done, total: total)) }
            await progress.finish()
            return outcome
        }
        for message in outcome.messages { StandardStreams.errLine("crates \(command): \(message)") }
        return outcome.exitStatus(stoppedBy: stop)
    }
}
