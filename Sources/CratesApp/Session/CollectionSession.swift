import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// The collection UI's work behind the screen: carries out each `SessionRequest` on a task
/// (never on the UI thread), keeps the list's window of the collection up to date, runs the
/// lookup worker and follows the camera daemon, and reports everything as `SessionEvent`s
/// through `post`. It knows nothing of the terminal.
///
/// Its lifecycle, kept in one `State` under one mutex:
/// - It runs from `start()` to `stopped()`, once: nothing starts after the stop.
/// - At most one lookup worker runs. The worker starts and stops only in steps of one
///   chain (`lifecycle`), each step awaiting the one before: the start, each sign-in (stop
///   the old worker, then start one with the new credentials) and the stop happen one at a
///   time, in the order asked, so no sign-in leaves a worker that nobody stops.
/// - Requests run in order on one task (`executor`). Work that waits for Discogs or runs
///   long (a search, an add by release, a choice, a details fetch, a sync, a count) runs on
///   a task of its own, which the session holds in `tasks` until it ends.
/// - `stopped()` stops the observation and the camera, lets the requests already queued
///   run, cancels every task in `tasks`, stops the worker, and returns once all of them
///   have ended.
public final class CollectionSession: Sendable {
    let store: CollectionStore
    let post: @Sendable (SessionEvent) -> Void
    let lookups: Bool
    /// The camera daemon's socket; nil with `--no-scanner`.
    let scanner: ScanSocketPath?
    let undo: UndoLedger
    /// The current place: where what is added goes, and what a place's label changes.
    let context: ScanContext
    private let requests: AsyncStream<SessionRequest>
    private let requestSink: AsyncStream<SessionRequest>.Continuation
    let state: Mutex<State>
    /// The tasks started for requests, until each ends.
    private let tasks = TaskRegistry()

    struct State {
        enum Phase { case created, running, stopped }
        var phase = Phase.created
        var access: DiscogsAccess?
        /// Searches without a barcode, and the releases they found (added or linked from there).
        var finder: ReleaseFinder
        var worker: (worker: LookupWorker, task: Task<Void, Never>)?
        /// The last step of the worker's lifecycle asked for: the next one awaits it.
        var lifecycle: Task<Void, Never>?
        /// Workers whose `run()` has begun and not yet returned.
        var workersRunning = 0
        var executor: Task<Void, Never>?
        var observation: WindowObservation?
        var follower: ScanFollower?
        /// Releases whose full details are being fetched for a person now.
        var fetchingDetails: Set<Int> = []
        /// Whether a Discogs sync runs now (one at a time).
        var syncRunning = false
        /// The last sync's report: a removal asked after it adds to it (`SyncReport.add`).
        var syncReport: SyncReport?
        /// Records added in this session, whose lookup's match says whether Discogs has them.
        var recentAdds: Set<Int64> = []
        /// OAuth between its second and third leg: the sign-in form waits for the code.
        var oauth: OAuthStart?
    }

    /// The local Discogs catalogue: the worker asks it first, and the search (`s`) answers
    /// from it as the person types.
    let catalogue: (any ReleaseCatalogue)?
    /// Where signing in finds the credentials file, the application's key and Discogs.
    let environment: [String: String]
    /// Covers for the details view and the picker; nil when they are off.
    let covers: CoverDesk?
    /// Where the tagged records' export (`E`) is written: the directory the UI was started in.
    let exportDirectory: String

    /// `covers`: where covers come from (nil: covers are off), drawn by `renderer`.
    /// `exportDirectory`: where `SessionRequest.exportRecords` writes its file.
    public init(
        store: CollectionStore, discogs: DiscogsAccess?, lookups: Bool, scanner: ScanSocketPath?,
        catalogue: (any ReleaseCatalogue)? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        covers: CoverLibrary? = nil, renderer: (any CoverRendering)? = nil,
        exportDirectory: String = FileManager.default.currentDirectoryPath,
        post: @escaping @Sendable (SessionEvent) -> Void
    ) {
        self.store = store
        self.exportDirectory = exportDirectory
        self.environment = environment
        self.post = post
        self.catalogue = catalogue
        if let covers, let renderer {
            self.covers = CoverDesk(library: covers, renderer: renderer, post: post)
        } else {
            self.covers = nil
        }
        state = Mutex(State(access: discogs, finder: ReleaseFinder(access: discogs, catalogue: catalogue)))
        self.lookups = lookups
        self.scanner = scanner
        undo = UndoLedger(store: store)
        context = ScanContext(store: store)
        (requests, requestSink) = AsyncStream.makeStream(of: SessionRequest.self)
    }

    var discogs: DiscogsAccess? { state.withLock { $0.access } }
    var finder: ReleaseFinder { state.withLock { $0.finder } }
    /// How many lookup workers run now (at most one).
    var workersRunning: Int { state.withLock { $0.workersRunning } }

    /// Starts watching the collection, the worker and the camera.
    public func start() {
        let post = self.post
        let began = state.withLock { state in
            guard state.phase == .created else { return false }
            state.phase = .running
            state.executor = Task { [requests] in
                for await request in requests { await self.execute(request) }
            }
            return true
        }
        guard began else { return }
        // The list's window of the collection, re-run on every change by any process. The
        // first answer is the first screen (a few milliseconds at 100,000 records).
        do {
            let observation = try store.observeWindow(
                CollectionQuery(window: RowWindow(offset: 0, limit: 200)),
                onError: { error in post(.message("\(error)", isError: true)) },
                onChange: { [weak self] window in
                    post(.window(window))
                    self?.refreshWaiting()
                })
            let stopped = state.withLock { state in
                if state.phase == .running { state.observation = observation }
                return state.phase != .running
            }
            if stopped { observation.cancel() }
        } catch {
            post(.message("\(error)", isError: true))
        }
        if let catalogue { post(.catalogue(catalogue.edition)) }
        // A newer catalogue built while the UI runs, once the worker takes it.
        (catalogue as? FollowedReleaseCatalogue)?.onReplaced { edition in post(.catalogue(edition)) }
        lifecycle { await self.startWorker() }
        startScanner()
    }

    /// Queues a request; returns at once. Requests run in order.
    public func perform(_ request: SessionRequest) {
        requestSink.yield(request)
    }

    /// Stops everything; the lookup in hand gets a few seconds, then goes back to the queue.
    /// For the UI thread, which may block; tasks call `stopped()`.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        Task {
            await stopped()
            done.signal()
        }
        done.wait()
    }

    /// `stop()` for a task: never blocks a thread of the cooperative pool. Returns once
    /// everything the session started has ended.
    public func stopped() async {
        let (observation, follower, executor) = state.withLock { state in
            state.phase = .stopped
            defer { (state.observation, state.follower) = (nil, nil) }
            return (state.observation, state.follower, state.executor)
        }
        observation?.cancel()
        follower?.stop()
        let started = tasks.cancelAll()
        await covers?.stop()
        // The requests already queued still run (a scan just before quitting is added); what
        // they would start now is not started.
        requestSink.finish()
        await executor?.value
        await lifecycle { await self.stopWorker() }.value
        for task in started { await task.value }
    }

    /// New credentials (signed in from the UI), or none (signed out): the worker starts
    /// again with them.
    public func signedIn(_ access: DiscogsAccess) {
        // Searches use the new credentials at once; the worker once the old one has stopped.
        state.withLock { $0.finder = ReleaseFinder(access: access, catalogue: catalogue) }
        lifecycle {
            await self.stopWorker()
            guard self.state.withLock({ state in
                state.access = access
                return state.phase == .running
            }) else { return }
            await self.startWorker()
            self.post(.message(
                access.signedIn ? "Signed in to Discogs as \(access.displayName)" : "Signed out of Discogs", isError: false))
        }
    }

    /// Runs `step` once every lifecycle step asked for before it has ended: the worker's
    /// starts and stops, one at a time, in order.
    @discardableResult
    func lifecycle(_ step: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { state in
            let previous = state.lifecycle
            let next = Task {
                await previous?.value
                await step()
            }
            state.lifecycle = next
            return next
        }
    }

    /// Runs `work` on a task the session holds until it ends, and cancels when it stops.
    /// Nothing runs once the session has stopped.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        tasks.spawn(work)
    }
}
