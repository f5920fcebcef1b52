import CratesCore

/// The full details of releases completed from search results, fetched while no lookup is
/// due (`Policy.backgroundDetails`): what the worker keeps of it between fetches.
struct BackgroundDetails {
    let queue: any ReleaseDetailsQueue
    /// The fetches under way, one release after another.
    var task: Task<Void, Never>?
    /// False once the queue had none left; true again when a lookup completes a release
    /// from its search result.
    var mayBeWaiting = true
    /// Releases whose fetch failed: not again in this run.
    var failed: Set<Int> = []
    /// Details fetched so far.
    var fetched = 0

    init(queue: any ReleaseDetailsQueue) {
        self.queue = queue
    }
}

extension LookupWorker {
    func startBackgroundDetails() {
        guard let background, background.mayBeWaiting, background.task == nil, !stopping else { return }
        self.background?.task = Task { [weak self] in
            await self?.fetchDetailsWhileIdle(background.queue)
        }
    }

    /// One release after another while no lookup is in hand, each at background priority
    /// (the rate limiter serves every waiting lookup first and keeps part of the window
    /// free of background requests).
    private func fetchDetailsWhileIdle(_ details: any ReleaseDetailsQueue) async {
        defer { background?.task = nil }
        while inHand.isEmpty, !stopping, !reachability.isUnreachable, !Task.isCancelled {
            guard let id = try? await details.nextReleaseWithoutDetails(excluding: background?.failed ?? []) else {
                background?.mayBeWaiting = false
                return
            }
            let retry = retry(pauses: Array(policy.retryPauses.prefix(3)))
            do {
                let release = try await lookup.client.release(id: id, priority: .background, retry: retry)
                await write { try await details.storeDetails(release) }
                background?.fetched += 1
            } catch {
                if error.isCancellation || Task.isCancelled { return }
                background?.failed.insert(id)  // not again in this run
            }
        }
    }
}
