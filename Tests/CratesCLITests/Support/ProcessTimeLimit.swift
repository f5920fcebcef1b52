import Testing

extension Trait where Self == TimeLimitTrait {
    /// Every test of a suite that runs crates as a process: a hang (a child that never
    /// exits, a tmux that never answers) fails that test within minutes, with its name,
    /// rather than the whole run at `make test`'s limit (25 minutes). Twenty minutes is over
    /// twice the slowest test's time on a loaded 2-core machine (the memory tests of every
    /// import kind: 587 s).
    static var processTimeLimit: Self { .timeLimit(.minutes(20)) }
}
