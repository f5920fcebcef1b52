import CratesCore
import CratesNet
import CratesStore
import CratesTUI
import Foundation
import Synchronization

/// Wires the UI to the store and the lookup worker. The UI thread only runs `AppRunner`;
/// every store call and every request happens on tasks here, which report back through the
/// inbox.
final class TUISession: Sendable {
    private let store: CatalogueStore
    private let inbox = Inbox()
    /// Replaced after signing in from the UI (`A`).
    private let discogsSetup: Mutex<DiscogsAccess?>
    private var discogs: DiscogsAccess? { discogsSetup.withLock { $0 } }
    private let lookups: Bool
    /// The camera daemon's socket; nil with `--no-scanner`.
    private let scanner: ScanSocketPath?
    private let follower = Mutex<ScanFollower?>(nil)
    /// Deleted rows by undo token, kept for `u`.
    private let undoBatches = Mutex<(next: Int, batches: [Int: [DeletedRecord]])>((1, [:]))
    private let worker = Mutex<(worker: LookupWorker?, task: Task<Void, Never>?)>((nil, nil))
    private let observation = Mutex<WindowObservation?>(nil)
    private let commands: AsyncStream<AppCommand>
    private let commandSink: AsyncStream<AppCommand>.Continuation

    init(store: CatalogueStore, discogs: DiscogsAccess?, lookups: Bool, scanner: ScanSocketPath?) {
        self.store = store
        discogsSetup = Mutex(discogs)
        self.lookups = lookups
        self.scanner = scanner
        (commands, commandSink) = AsyncStream.makeStream(of: AppCommand.self)
    }

    /// Runs the UI on the calling (main) thread until the user quits. Returns the signal
    /// that ended it, if one did.
    func run() -> Int32? {
        let inbox = self.inbox
        let store = self.store
        // The list's window of the collection, re-run on every change by any process. The
        // first answer is the first screen (a few milliseconds at 100,000 records).
        do {
            let observation = try store.observeWindow(
                CollectionQuery(window: RowWindow(offset: 0, limit: 200)),
                onError: { error in inbox.post(.message("\(error)", isError: true)) },
                onChange: { [weak self] window in
                    inbox.post(.list(ListModel(window)))
                    self?.refreshWaiting()
                })
            self.observation.withLock { $0 = observation }
        } catch {
            inbox.post(.message("\(error)", isError: true))
        }
        let executor = Task { [commands] in
            for await command in commands { await self.execute(command) }
        }
        startWorker()
        startScanner()

        let runner = AppRunner(
            inbox: inbox,
            perform: { [commandSink] command in commandSink.yield(command) },
            interactive: { [weak self] _ in self?.signIn() })
        let signal = runner.run()

        observation.withLock { $0?.cancel() }
        follower.withLock { $0?.stop() }
        commandSink.finish()
        stopWorker()
        executor.cancel()
        return signal
    }

    // MARK: Commands

    private func execute(_ command: AppCommand) async {
        do {
            switch command {
            case .add(let gtin, let method):
                // Checked here, not in the UI: another process may have added it.
                let copies = try await store.copies(of: gtin)
                guard copies == 0 else {
                    inbox.post(.duplicate(gtin, method: method, copies: copies))
                    return
                }
                let record = try await store.add(NewRecord(gtin: gtin, addMethod: method))
                inbox.post(.added(recordID: record.id))
                nudgeWorker()
            case .addCopy(let gtin, let method):
                let record = try await store.add(NewRecord(gtin: gtin, addMethod: method))
                inbox.post(.added(recordID: record.id))
                nudgeWorker()
            case .query(let query):
                observation.withLock { $0 }?.update(CollectionQuery(
                    filter: query.filter, window: RowWindow(offset: query.offset, limit: query.limit), focus: query.focus))
            case .focus(let id):
                observation.withLock { $0 }?.focus(id)
            case .addRelease(let id, let method):
                Task {
                    do {
                        try await self.addRelease(id, method: method)
                    } catch {
                        self.inbox.post(.message("\(error)", isError: true))
                    }
                }
            case .delete(let ids):
                let deleted = try await store.delete(ids)
                let token = undoBatches.withLock { state in
                    let token = state.next
                    state.next += 1
                    state.batches[token] = deleted
                    return token
                }
                inbox.post(.deleted(count: deleted.count, undo: token))
            case .undo(let token):
                guard let batch = undoBatches.withLock({ $0.batches.removeValue(forKey: token) }) else { return }
                try await store.restore(batch)
                inbox.post(.restored(count: batch.count))
            case .loadDetails(let id):
                if let details = try await store.details(id) {
                    inbox.post(.details(details))
                } else {
                    inbox.post(.message("That record is gone", isError: true))
                }
            case .retry(let id):
                try await store.retry([id])
                nudgeWorker()
            case .choose(let recordID, let releaseID):
                guard let client = discogs?.client else {
                    inbox.post(.message("Not signed in to Discogs: press A to sign in", isError: true))
                    return
                }
                // A request waits for the rate limit: off the serial queue, so that list
                // queries and adds are not held up behind it.
                let store = self.store
                let inbox = self.inbox
                Task {
                    do {
                        let release = try await client.release(id: releaseID)
                        try await store.choose(release, for: recordID)
                    } catch {
                        inbox.post(.message("\(error)", isError: true))
                    }
                }
            case .openURL(let url):
                open(url)
            case .authenticate, .suspend, .redraw, .quit:
                break  // handled by the UI loop
            }
        } catch {
            inbox.post(.message("\(error)", isError: true))
        }
    }

    /// Adds a record by Discogs release id: the release says which barcode it carries.
    private func addRelease(_ id: Int, method: AddMethod) async throws {
        guard let client = discogs?.client, discogs?.signedIn == true else {
            inbox.post(.message("Adding by release id needs Discogs: press A to sign in", isError: true))
            return
        }
        let release = try await client.release(id: id)
        guard let gtin = ReleaseBarcodes.gtin(in: release) else {
            inbox.post(.message("Discogs release \(id) lists no barcode: scan the record's barcode instead", isError: true))
            return
        }
        let record = try await store.add(NewRecord(gtin: gtin, addMethod: method, release: release))
        inbox.post(.added(recordID: record.id))
        inbox.post(.message("Added \(release.artist) — \(release.title)", isError: false))
    }

    /// xdg-open when there is a display; otherwise the URL stays on screen (the details view
    /// shows it, also as an OSC 8 hyperlink).
    private func open(_ url: String) {
        let environment = ProcessInfo.processInfo.environment
        let hasDisplay = !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        guard hasDisplay, let xdgOpen = ExecutablePath.find("xdg-open") else {
            inbox.post(.message("No browser here: \(url)", isError: false))
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xdgOpen)
        process.arguments = [url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            inbox.post(.message("Opened \(url)", isError: false))
        } catch {
            inbox.post(.message("Could not open a browser: \(url)", isError: true))
        }
    }

    /// The queue's length for the status line, read after each change (an indexed count).
    private func refreshWaiting() {
        let store = self.store
        let inbox = self.inbox
        Task {
            if let waiting = try? await store.waitingCount() { inbox.post(.waiting(waiting)) }
        }
    }

    // MARK: The camera daemon

    /// Follows the daemon's socket on a thread of its own: connects when the daemon is
    /// there, reconnects after it restarts, and turns what it reads into events. Keys and
    /// wedge scans never wait on it.
    private func startScanner() {
        guard let scanner else { return }
        let inbox = self.inbox
        let follower = ScanFollower(path: scanner.path) { message in
            switch message {
            case .connected:
                inbox.post(.camera(.connected))
            case .event(let event):
                inbox.post(.cameraScan(event))
            case .dropped(let error):
                // Never fatal: a daemon speaking a newer dialect, or garbage on the socket.
                SessionLog.warning("camera: dropped a line from \(scanner.path): \(error)")
                inbox.post(.message("camera: dropped a malformed line (\(error))", isError: true))
            case .disconnected:
                inbox.post(.camera(.noDaemon))
            }
        }
        self.follower.withLock { $0 = follower }
        follower.start()
    }

    // MARK: The lookup worker

    private func startWorker() {
        guard lookups else {
            inbox.post(.discogs(.offline))
            return
        }
        guard let discogs, discogs.signedIn else {
            inbox.post(.discogs(.notSignedIn))
            return
        }
        let username = discogs.username
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: discogs.client))
        let inbox = self.inbox
        let task = Task {
            let statuses = Task {
                for await status in worker.statusUpdates {
                    inbox.post(.discogs(DiscogsStatus(status, username: username)))
                    if case .working(let waiting) = status { inbox.post(.waiting(waiting + 1)) }
                }
            }
            inbox.post(.discogs(.signedIn(username: username ?? "signed in")))
            await worker.run()
            await statuses.value
        }
        self.worker.withLock { $0 = (worker, task) }
    }

    private func nudgeWorker() {
        worker.withLock { $0.worker }?.nudge()
    }

    /// Stops the worker, waiting at most a few seconds for the lookup in hand: its claim's
    /// lease makes the record due again if it is cut short.
    private func stopWorker() {
        let (worker, task) = self.worker.withLock { ($0.worker, $0.task) }
        guard let worker, let task else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await worker.stop()
            await task.value
            done.signal()
        }
        if done.wait(timeout: .now() + 3) == .timedOut { task.cancel() }
    }

    /// `A`: runs `crates auth` on the plain terminal, then restarts the worker with the new
    /// credentials.
    private func signIn() {
        print("\nSigning in to Discogs (Ctrl-C to cancel).\n")
        let status = ChildProcess.runInteractive(CommandLine.arguments[0], ["auth"])
        if status != 0 {
            print("\nNot signed in. Press Enter to go back to crates.")
            _ = readLine()
        }
        guard status == 0 else {
            inbox.post(.message("Not signed in", isError: true))
            return
        }
        do {
            let setup = try DiscogsAccess.make()
            stopWorker()
            discogsSetup.withLock { $0 = setup }
            startWorker()
            inbox.post(.message("Signed in to Discogs as \(setup.username ?? "you")", isError: false))
        } catch {
            inbox.post(.message("\(error)", isError: true))
        }
    }
}

extension DiscogsStatus {
    init(_ status: LookupWorker.Status, username: String?) {
        switch status {
        case .idle, .stopped: self = .signedIn(username: username ?? "signed in")
        case .working: self = .working(username: username)
        case .offline: self = .offline
        case .rateLimited(let seconds): self = .rateLimited(until: Double(seconds))
        case .unauthorized(let message): self = .unauthorised(message)
        }
    }
}
