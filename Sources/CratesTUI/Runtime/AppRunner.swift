import Glibc
import CratesCore

/// The UI loop: reads keys, applies events from the inbox, and draws, all on the calling
/// (main) thread. Nothing here blocks for long: keys are read with a 50 ms timeout so events
/// posted by workers and resizes are picked up without a key press.
public final class AppRunner {
    public typealias Perform = (AppCommand) -> Void

    private var state: AppState
    private let inbox: Inbox
    private let terminal: CursesTerminal
    private let perform: Perform
    private var arrival = KeyArrival()

    /// - Parameters:
    ///   - perform: runs a command on the workers; must return at once.
    ///   - order: the list's order to start with (the one remembered).
    ///   - covers: whether the details view shows covers (`I` toggles them).
    ///   - checking: start in check mode (`crates --check`): scans add nothing.
    public init(
        inbox: Inbox, order: ListOrder = .default, covers: Bool = false, checking: Bool = false, perform: @escaping Perform
    ) {
        self.inbox = inbox
        self.perform = perform
        terminal = CursesTerminal()
        state = AppState(width: 80, height: 24, order: order, covers: covers)
        if checking { state.startChecking() }
    }

    /// Runs until the user quits or a terminating signal arrives; the terminal is restored on
    /// every way out. Returns the signal that ended it, if one did.
    @discardableResult
    public func run() -> Int32? {
        SignalPipe.install()
        terminal.start()
        defer { terminal.stop() }
        state.coverColours = terminal.coverColours
        dispatch(state.handle(.resize(width: terminal.width, height: terminal.height)))
        var dirty = true
        while !state.hasQuit {
            if let signal = SignalPipe.take() { return signal }
            for event in inbox.drain() {
                dispatch(state.handle(event))
                dirty = true
            }
            if dirty {
                terminal.draw(state.render())
                dirty = false
            }
            // Wait for one key (or the timeout), then take every key already typed before
            // drawing again: a wedge burst is applied in order, none dropped, one frame.
            var input = terminal.readKey(wait: true)
            var taken = 0
            while let current = input, taken < 512 {
                apply(current)
                dirty = true
                taken += 1
                if state.hasQuit { break }
                input = terminal.readKey(wait: false)
            }
        }
        return nil
    }

    /// Applies one input, just read: a key carries the time it came (`KeyArrival`).
    private func apply(_ input: TerminalInput) {
        switch input {
        case .resize(let width, let height):
            dispatch(state.handle(.resize(width: width, height: height)))
        case .key(let key):
            let time = arrival.stamp(readAt: Self.now(), waiting: terminal.waitingInputBytes())
            dispatch(state.handle(.key(key, at: time)))
        }
    }

    private func dispatch(_ commands: [AppCommand]) {
        for command in commands {
            switch command {
            case .suspend:
                terminal.suspend()
                dispatch(state.handle(.resize(width: terminal.width, height: terminal.height)))
            case .redraw:
                terminal.invalidate()
            case .bell:
                terminal.bell()
            case .quit:
                break
            default:
                perform(command)
            }
        }
    }

    /// Monotonic seconds, for telling wedge bursts from typing.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
