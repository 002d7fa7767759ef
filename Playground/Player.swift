import Dynamics
import DynamicsScenes
import Foundation

/// Plays the scene gallery one display-link frame at a time: reads the keys, advances the scene
/// by the frame's duration, draws it, and stops at the frame limit or when asked to quit.
final class Player {
    let options: PlaygroundOptions
    /// Whether stdout is a terminal: full-screen playback with keys, else plain text frames.
    let interactive: Bool
    /// The scenes `n` and `p` walk through: the catalogue, then the benchmark scenes.
    let playlist: [UIKitScene]
    private(set) var sceneIndex: Int
    private(set) var scene: UIKitSceneInstance
    /// Frames of the current scene instance, for its hook.
    private var sceneFrame = 0
    /// Frames drawn so far, over all scenes.
    private(set) var framesPlayed = 0
    private let frameLimit: Int?
    private var paused = false
    private var braille: Bool
    /// Frames in a row the animator has been paused (everything at rest).
    private var restingFrames = 0
    /// Smoothed frame interval (s) and step cost (ms per step), for the stats line.
    private var frameInterval: Double?
    private var stepMilliseconds: Double?
    private var lastSize: (columns: Int, rows: Int)?
    /// The trace (CSV and scene file) of the first scene's first run, and its observer.
    private var csv: CSVFrameWriter?
    private var csvObserver: FrameObserverToken?
    /// Plain-text frames already written (piped mode), to separate them with blank lines.
    private var framesWritten = 0
    /// Whether the player has stopped (limit reached or quit).
    private(set) var isFinished = false
    /// The report of the frame the last `advance` ran, not yet drawn: the picture is drawn from
    /// it (poses read once per frame); nil when the animator ran no step since the last picture.
    private var frameReport: FrameReport?

    init(options: PlaygroundOptions, interactive: Bool, csv: CSVFrameWriter?) {
        self.options = options
        self.interactive = interactive
        playlist = UIKitScenes.all + UIKitBenchmarkScenes.scenes
        let name = options.scene ?? UIKitScenes.defaultScene.name
        sceneIndex = playlist.firstIndex { $0.name == name } ?? 0
        scene = playlist[sceneIndex].make()
        frameLimit = options.frameLimit(interactive: interactive)
        braille = options.braille
        self.csv = csv
        if let csv {
            csvObserver = csv.record(scene.animator)
        }
        keepFrameReports()
    }

    /// Keeps the report of each frame of the current scene's animator for `draw()`.
    private func keepFrameReports() {
        frameReport = nil
        scene.animator.addFrameObserver { [weak self] report in self?.frameReport = report }
    }

    // MARK: Frames

    /// One display-link frame.
    func frame(_ link: DisplayLink) {
        guard !isFinished else { return }
        if quitSignal.load(ordering: .sequentiallyConsistent) != 0 {
            finish(link)
            return
        }
        handleKeys(link)
        guard !isFinished else { return }

        if link.lastFrameDuration > 0 {
            let interval = link.lastFrameDuration
            frameInterval = frameInterval.map { 0.9 * $0 + 0.1 * interval } ?? interval
        }
        if !paused {
            let seconds = min(link.lastFrameDuration, DisplayLink.maximumAnimatorFrameDuration)
            let clock = ContinuousClock()
            let start = clock.now
            let steps = scene.advance(frame: sceneFrame, by: seconds)
            let elapsed = start.duration(to: clock.now)
            sceneFrame += 1
            if steps > 0 {
                let ms = (Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15) / Double(steps)
                stepMilliseconds = stepMilliseconds.map { 0.9 * $0 + 0.1 * ms } ?? ms
            }
            // A write to the trace failed (a full disk, a file-size limit): stop, so the program
            // says so now instead of playing on with a trace that has stopped growing.
            if csv?.error != nil {
                finish(link)
                return
            }
            replayIfDone()
        }
        draw()
        framesPlayed += 1
        if let limit = frameLimit, framesPlayed >= limit {
            finish(link)
        }
    }

    /// Draws the current state without advancing (the picture before the first frame).
    func draw() {
        let size = pictureSize()
        var renderer = ASCIIRenderer(width: size.columns, height: size.rows)
        renderer.braille = braille
        renderer.overlays = scene.overlays?() ?? []
        // The frame's own report when a step ran since the last picture; otherwise (the first
        // picture, a paused or too-short frame) the animator as it is.
        let report = frameReport
        frameReport = nil
        let animator = scene.animator
        if interactive {
            if let last = lastSize, last != size {
                Terminal.write("\u{1B}[2J")
            }
            lastSize = size
            let status = statusLine()
            let picture = report.map { renderer.render($0, of: animator, statusLine: status) }
                ?? renderer.render(animator, statusLine: status)
            Terminal.write("\u{1B}[H" + picture)
        } else {
            let picture = report.map { renderer.render($0, of: animator) } ?? renderer.render(animator)
            Terminal.write((framesWritten > 0 ? "\n" : "") + picture + "\n")
            framesWritten += 1
        }
    }

    /// Stops playing: closes the CSV and invalidates the link (so `run` returns).
    func finish(_ link: DisplayLink?) {
        guard !isFinished else { return }
        isFinished = true
        stopRecording()
        link?.invalidate()
    }

    /// The picture's size: `--size`, else the terminal's, else 80 × 24.
    private func pictureSize() -> (columns: Int, rows: Int) {
        if let w = options.width, let h = options.height { return (w, h) }
        if interactive, let size = Terminal.size() { return size }
        return (80, 24)
    }

    /// The live stats line: scene, simulated time, fps, step cost, items, contacts, resting.
    private func statusLine() -> String {
        let stats = scene.animator.statistics
        let fps = frameInterval.map { String(format: "%.0f", 1 / $0) } ?? "-"
        let step = stepMilliseconds.map { String(format: "%.2f", $0) } ?? "-"
        let time = String(format: "%.2f", scene.animator.elapsedTime)
        var line = "\(scene.name)  t \(time) s  \(fps) fps  step \(step) ms  items \(stats.items)"
            + "  contacts \(stats.touchingContacts)  resting \(stats.restingItems)"
        if paused { line += "  PAUSED" }
        // The key help, in as much detail as the width leaves room for.
        let width = options.width ?? lastSize?.columns ?? 80
        for help in ["  | n/p scene  space pause  r restart  b braille  q quit", "  | n p space r b q"]
        where line.count + help.count <= width {
            return line + help
        }
        return line
    }

    // MARK: Scenes

    /// Starts the scene at `index` of the playlist afresh.
    private func play(_ index: Int) {
        stopRecording()
        sceneIndex = (index % playlist.count + playlist.count) % playlist.count
        scene = playlist[sceneIndex].make()
        keepFrameReports()
        sceneFrame = 0
        restingFrames = 0
        stepMilliseconds = nil
    }

    /// Restarts the scene after its replay time, or once everything has rested for 2 s.
    private func replayIfDone() {
        if let after = playlist[sceneIndex].replayAfter, scene.animator.elapsedTime >= after {
            play(sceneIndex)
            return
        }
        restingFrames = scene.animator.isRunning ? 0 : restingFrames + 1
        if restingFrames >= 2 * options.fps {
            play(sceneIndex)
        }
    }

    /// Ends the CSV stream: only the first run of the first scene is recorded.
    private func stopRecording() {
        if let token = csvObserver {
            scene.animator.removeFrameObserver(token)
            csvObserver = nil
        }
        csv?.close()
        csv = nil
    }

    // MARK: Keys

    private func handleKeys(_ link: DisplayLink) {
        let keys = Terminal.readKeys()
        var k = 0
        while k < keys.count {
            let key = keys[k]
            if key == 0x1B, k + 2 < keys.count, keys[k + 1] == UInt8(ascii: "[") {
                switch keys[k + 2] {
                case UInt8(ascii: "C"): play(sceneIndex + 1)
                case UInt8(ascii: "D"): play(sceneIndex - 1)
                default: break
                }
                k += 3
                continue
            }
            switch key {
            case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x1B:
                finish(link)
                return
            case UInt8(ascii: "n"), UInt8(ascii: "N"): play(sceneIndex + 1)
            case UInt8(ascii: "p"), UInt8(ascii: "P"): play(sceneIndex - 1)
            case UInt8(ascii: "r"), UInt8(ascii: "R"): play(sceneIndex)
            case UInt8(ascii: " "): paused.toggle()
            case UInt8(ascii: "b"), UInt8(ascii: "B"): braille.toggle()
            default: break
            }
            k += 1
        }
    }
}
