import CratesCore
import CratesNet
import CratesStore
import Foundation

/// The collection UI's grading and Discogs sync: `M`, `V` and `*` in the details view, `S`
/// in the list, with the sync's progress on the status line and its question after.
extension CollectionSession {
    /// A copy's conditions or rating, set from the details view's pickers: an edit as `e`
    /// makes one (`CollectionStore.edit`).
    func grade(_ recordID: Int64, _ change: CopyGradingChange) async throws {
        let (record, token) = try await undo.edit(recordID, RecordEdit(grading: change))
        if let details = try await store.details(recordID) { post(.details(details)) }
        let text = RecordEditing.gradingMessage(for: record, change: change)
        post(token.map { .edited(text: text, undo: $0) } ?? .message(text, isError: false))
    }

    /// Starts a sync in the background, unless one runs already; the status line follows it
    /// (with the time left) and its summary ends on the message line. Until a sync with the
    /// account has ended whole, the first is a dry run whose plan is asked about
    /// (`SessionEvent.syncPlan`); `asPlanned`, the yes to it, runs the sync itself.
    func startSync(asPlanned: Bool = false) {
        guard let access = discogs, access.signedIn else {
            post(.notSignedIn(need: "Sync needs Discogs"))
            return
        }
        guard begin() else {
            post(.message("A sync is running already", isError: false))
            return
        }
        let post = self.post
        let timeLeft = SyncTimeLeft(limiter: access.client.rateLimiter) { post(.syncTimeLeft($0)) }
        let sync = DiscogsSync(
            store: store, access: access, configuredFolder: SyncFolder.configured(),
            progress: { status in
                post(.sync(status))
                timeLeft.show(status)
            })
        spawn {
            defer { self.end() }
            if !asPlanned, await !self.syncCompletedBefore() {
                let plan = await sync.run(DiscogsSync.Options(dryRun: true))
                await timeLeft.finish()
                post(.sync(.idle))
                if let failure = plan.failure {
                    post(.message("Sync with Discogs not begun: \(failure)", isError: true))
                } else {
                    post(.syncPlan(SyncPlan(
                        push: plan.pushed, folder: plan.folder ?? "", pull: plan.pulled, conflicts: plan.conflicts.count)))
                }
                return
            }
            let report = await sync.run(DiscogsSync.Options())
            await timeLeft.finish()
            self.state.withLock { $0.syncReport = report }
            self.finished(report)
            if report.failure == nil, !report.deletedHere.isEmpty {
                let count = report.deletedHere.count
                post(.syncQuestion(SyncQuestion(
                    text: "\(counted(count, "copy", plural: "copies")) deleted here \(count == 1 ? "is" : "are") still on Discogs: remove \(count == 1 ? "it" : "them") there too?",
                    yes: .removeFromDiscogs(instanceIDs: report.deletedHereInstances),
                    declined: "Kept on Discogs: \(counted(count, "copy", plural: "copies"))")))
            }
        }
    }

    /// The yes to "remove them there too?": what the removal did adds to the sync's
    /// summary, which stays whole (its conflicts, the copies removed on Discogs).
    func startRemoval(_ instanceIDs: [Int64]) {
        guard let access = discogs, access.signedIn, begin() else { return }
        let post = self.post
        let sync = DiscogsSync(store: store, access: access, progress: { post(.sync($0)) })
        spawn {
            defer { self.end() }
            let removal = await sync.removeFromDiscogs(instanceIDs: instanceIDs)
            let report = self.state.withLock { state -> SyncReport in
                guard var report = state.syncReport else { return removal }
                report.add(removal)
                state.syncReport = report
                return report
            }
            self.finished(report)
        }
    }

    /// A choice in the conflicts view: these copies' conflicts settled toward one side; the
    /// view then gets the conflicts left, and an open details view the copy's values.
    func startSettling(_ recordIDs: [Int64], toward side: SyncPreference) {
        guard let access = discogs, access.signedIn || side == .discogs else {
            post(.notSignedIn(need: "Sending crates' values needs Discogs"))
            return
        }
        guard begin() else {
            post(.message("A sync is running: choose again once it has ended", isError: false))
            return
        }
        let post = self.post
        let sync = DiscogsSync(store: store, access: access, progress: { post(.sync($0)) })
        spawn {
            defer { self.end() }
            let report = await sync.settle(recordIDs: recordIDs, toward: side)
            post(.message(report.settlement(toward: side), isError: report.failure != nil))
            do {
                post(.syncConflicts(try await self.store.syncConflicts()))
                for copy in report.settled {
                    if let details = try await self.store.details(copy.recordID) { post(.details(details)) }
                }
            } catch {
                post(.message("\(error)", isError: true))
            }
        }
    }

    /// "Added …: on Discogs: 2 copies" once a record scanned in this session is matched to
    /// a release the last sync found in the Discogs collection (no request: the store knows).
    func announceOwnership(recordID: Int64) async {
        guard state.withLock({ $0.recentAdds.remove(recordID) != nil }),
              let details = try? await store.details(recordID), let release = details.release,
              let text = DiscogsOwnership.text(copies: details.discogsCopies)
        else { return }
        post(.message("\(release.displayTitle): \(text)", isError: false))
    }

    /// What a scan says about Discogs: by the release when it is known, else by the
    /// barcode's copies already matched.
    func onDiscogsText(release: Release?, gtin: GTIN?) async throws -> String? {
        let copies =
            if let release { try await store.discogsCopies(ofRelease: release.id) }
            else if let gtin { try await store.discogsCopies(ofBarcode: gtin) }
            else { 0 }
        return DiscogsOwnership.text(copies: copies)
    }

    /// Whether a sync with the account has ended whole (an unreadable store: taken as not,
    /// so that the plan is shown rather than skipped).
    private func syncCompletedBefore() async -> Bool {
        (try? await store.discogsSyncCompleted()) ?? false
    }

    private func finished(_ report: SyncReport) {
        post(.sync(.idle))
        var text = report.summary
        if let failure = report.failure { text += " " + failure.description }
        if !report.conflicts.isEmpty {
            text += " C shows \(report.conflicts.count == 1 ? "the conflict" : "the conflicts"): keep crates' value or take Discogs'."
        }
        if !report.refusedAdds.isEmpty {
            // Named, so that "112 pushed" of 121 planned is not read as all of them.
            let named = report.refusedAdds.prefix(5).map { "\($0.recordID.map(String.init) ?? "") \(SyncReport.clean($0.title))" }
            let more = report.refusedAdds.count > 5 ? " and \(report.refusedAdds.count - 5) more" : ""
            text += " Discogs refused to add \(named.joined(separator: ", "))\(more): not sent again until you choose another release "
                + "(the details say why)."
        }
        if !report.removedOnDiscogs.isEmpty {
            text += " `crates sync` lists the copies removed on Discogs (`--restore-removed` adds them again)."
        }
        post(.message(text, isError: report.failure != nil || !report.refusedAdds.isEmpty))
    }

    private func begin() -> Bool {
        state.withLock { state in
            guard !state.syncRunning else { return false }
            state.syncRunning = true
            return true
        }
    }

    private func end() {
        state.withLock { $0.syncRunning = false }
    }
}
