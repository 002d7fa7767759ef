import Foundation

/// The command line of the terminal `playground`, parsed; kept here so the tests can reach it.
///
/// ```
/// playground [SCENE] [--list] [--fps N] [--frames N] [--seconds S] [--size WxH]
///            [--braille] [--csv FILE] [--svg FILE] [--help]
/// playground replay FILE.csv [--speed X] [--frame N] [--fps N] [--frames N] [--seconds S]
///            [--size WxH] [--braille] [--svg FILE] [--svg-fps N] [--stats]
/// ```
/// Options take their value as the next argument or after `=` (`--fps=60`).
package struct PlaygroundOptions: Equatable, Sendable {
    /// The scene to play first; nil: ``UIKitScenes/defaultScene``.
    package var scene: String?
    /// Print the scenes and exit.
    package var list = false
    /// Print the usage and exit.
    package var help = false
    /// Frames per second of the playback, 1…240; default 30.
    package var fps = 30
    /// Stop after this many frames, 1…``maximumFrames``; nil: never in a terminal, 3 when stdout
    /// is not a terminal.
    package var frames: Int?
    /// Stop after this many seconds of playback (`seconds × fps` frames), above 0 and at most
    /// ``maximumSeconds``; nil: no limit.
    package var seconds: Double?
    /// The picture's size in characters; nil: the terminal's size (80 × 24 when unknown).
    package var width: Int?
    /// See ``width``.
    package var height: Int?
    /// Draw with braille dots (2 × 4 a cell).
    package var braille = false
    /// Stream the first scene's frames as CSV to this file (and its scene beside it).
    package var csvPath: String?
    /// The trace to play (`playground replay FILE`); nil: play the gallery.
    package var replayPath: String?
    /// Replay speed: trace seconds per second of playback, 0.01…1000; default 1.
    package var speed = 1.0
    /// The `frame` number a replay starts at (the first frame numbered at least this), or the
    /// frame `--svg` draws; nil: the first frame (and, for `--svg`, an animation of them all).
    package var startFrame: Int?
    /// Write an SVG here: the last frame played of a gallery scene, or a replayed frame or trace.
    package var svgPath: String?
    /// Keyframes per second of trace time in an animated SVG, 0.1…240; default 20.
    package var svgKeyframesPerSecond = 20.0
    /// Replay only: when done, write to stderr how long each frame took to read and draw
    /// (median, 99th percentile, maximum, against the frame period of `--fps`) and the peak
    /// resident memory, to check that a large trace plays without stutter in bounded memory.
    /// Default `false`.
    package var stats = false

    /// Options with every default.
    package init() {}

    /// The frames to play when stdout is not a terminal and neither `--frames` nor `--seconds`
    /// is given: 3.
    package static let defaultPipedFrames = 3

    /// The most `--frames`: 10⁹ (over 6 months at 60 fps).
    package static let maximumFrames = 1_000_000_000
    /// The most `--seconds`: 10⁷ s (about 116 days), so `seconds × fps` is a frame count well
    /// within `Int` (a larger number once stopped the program on a conversion overflow).
    package static let maximumSeconds = 10_000_000.0

    /// The number of frames to play: the smaller of ``frames`` and `⌈seconds × fps⌉`; when
    /// neither is given, nil in a terminal (play until quit) or ``defaultPipedFrames`` otherwise.
    /// Options set in code beyond the parser's ranges are clamped, never trapped on.
    package func frameLimit(interactive: Bool) -> Int? {
        var limit = frames
        if let seconds {
            let product = (seconds * Double(fps)).rounded(.up)
            // NaN and anything past Int's range: no limit from seconds worth trapping over.
            let fromSeconds = product.isNaN ? Int.max : product >= 9.2e18 ? Int.max : max(1, Int(product))
            limit = min(limit ?? fromSeconds, fromSeconds)
        }
        return limit ?? (interactive ? nil : Self.defaultPipedFrames)
    }

    /// A command-line mistake, with the message to print.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. `--fps needs an integer from 1 to 240, not "fast"`.
        package var message: String
        package var description: String { message }
        /// An error saying `message`.
        package init(message: String) { self.message = message }
    }

    /// Parses the arguments after the program's name.
    ///
    /// - Throws: ``ParseError`` for an unknown option, a missing or invalid value, a second scene
    ///   name or an unknown scene, a replay without a file, or an option of the other command.
    package static func parse(_ arguments: [String]) throws(ParseError) -> PlaygroundOptions {
        var options = PlaygroundOptions()
        var queue = arguments[...]
        let replaying = queue.first == "replay"
        if replaying { queue.removeFirst() }
        var given: Set<String> = []
        while let argument = queue.popFirst() {
            var flag = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(ParseError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = queue.popFirst() else { throw ParseError(message: "\(flag) needs a value") }
                return next
            }
            func noValue() throws(ParseError) {
                if inlineValue != nil { throw ParseError(message: "\(flag) takes no value") }
            }
            if flag.hasPrefix("-") { given.insert(flag) }
            switch flag {
            case "--help", "-h":
                try noValue()
                options.help = true
            case "--list", "-l":
                try noValue()
                options.list = true
            case "--braille":
                try noValue()
                options.braille = true
            case "--stats":
                try noValue()
                options.stats = true
            case "--fps":
                let text = try value()
                guard let n = Int(text), (1 ... 240).contains(n) else {
                    throw ParseError(message: "--fps needs an integer from 1 to 240, not \"\(text)\"")
                }
                options.fps = n
            case "--frames":
                let text = try value()
                guard let n = Int(text), (1 ... maximumFrames).contains(n) else {
                    throw ParseError(message: "--frames needs an integer from 1 to \(maximumFrames), not \"\(text)\"")
                }
                options.frames = n
            case "--seconds":
                let text = try value()
                guard let s = Double(text), s.isFinite, s > 0, s <= maximumSeconds else {
                    throw ParseError(message: "--seconds needs a number above 0 and at most \(Int(maximumSeconds)), not \"\(text)\"")
                }
                options.seconds = s
            case "--size":
                let text = try value()
                let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
                      (1 ... 1000).contains(w), (1 ... 1000).contains(h) else {
                    throw ParseError(message: "--size needs WIDTHxHEIGHT in characters (1…1000 each), e.g. 80x24, not \"\(text)\"")
                }
                options.width = w
                options.height = h
            case "--csv":
                let path = try value()
                guard !path.isEmpty else { throw ParseError(message: "--csv needs a file name") }
                options.csvPath = path
            case "--svg":
                let path = try value()
                guard !path.isEmpty else { throw ParseError(message: "--svg needs a file name") }
                options.svgPath = path
            case "--speed":
                let text = try value()
                guard let x = Double(text), x.isFinite, x >= 0.01, x <= 1000 else {
                    throw ParseError(message: "--speed needs a number from 0.01 to 1000, not \"\(text)\"")
                }
                options.speed = x
            case "--frame":
                let text = try value()
                guard let n = Int(text), n >= 0 else {
                    throw ParseError(message: "--frame needs a frame number (0 or more), not \"\(text)\"")
                }
                options.startFrame = n
            case "--svg-fps":
                let text = try value()
                guard let x = Double(text), x.isFinite, x >= 0.1, x <= 240 else {
                    throw ParseError(message: "--svg-fps needs a number from 0.1 to 240, not \"\(text)\"")
                }
                options.svgKeyframesPerSecond = x
            default:
                if argument.hasPrefix("-") && argument.count > 1 {
                    throw ParseError(message: "unknown option \(argument) (see --help)")
                }
                if replaying {
                    if let first = options.replayPath {
                        throw ParseError(message: "one trace at a time: \(first) or \(argument)")
                    }
                    guard !argument.isEmpty else { throw ParseError(message: "replay needs a trace file (FILE.csv)") }
                    options.replayPath = argument
                    continue
                }
                if let first = options.scene {
                    throw ParseError(message: "one scene at a time: \(first) or \(argument)")
                }
                guard UIKitScenes.named(argument) != nil else {
                    throw ParseError(message: "unknown scene \(argument) (see --list)")
                }
                options.scene = argument
            }
        }
        if options.help { return options }
        if replaying {
            guard options.replayPath != nil else { throw ParseError(message: "replay needs a trace file (FILE.csv)") }
            for flag in ["--csv", "--list", "-l"] where given.contains(flag) {
                throw ParseError(message: "\(flag) is for the gallery, not for replay")
            }
        } else {
            for flag in ["--speed", "--frame", "--svg-fps", "--stats"] where given.contains(flag) {
                throw ParseError(message: "\(flag) is for replay (playground replay FILE.csv \(flag) …)")
            }
        }
        return options
    }

    /// The usage text printed by `--help`.
    package static let usage = """
        usage: playground [SCENE] [options]
               playground replay FILE.csv [options]

        Plays the UIKit Dynamics scene gallery in the terminal (default scene: \(UIKitScenes.defaultScene.name)),
        or replays a trace recorded with --csv (or by an app with CSVFrameWriter.record).

          SCENE           the scene to play first (see --list)
          --list, -l      list the scenes and exit
          --fps N         frames per second, 1…240 (default 30)
          --frames N      stop after N frames, 1…1000000000 (default: never; 3 when stdout is
                          not a terminal; a piped replay prints every frame of the trace)
          --seconds S     stop after S seconds of playback, at most 10000000
          --size WxH      picture size in characters (default: the terminal's, else 80x24)
          --braille       draw with braille dots, 2x4 per character, for smooth motion
          --csv FILE      record the first scene's first run: FILE (CSV) and FILE.scene.jsonl
          --svg FILE      write an SVG picture: the last frame played; for replay, the --frame
                          given, else an animation of the whole trace (and play nothing)
          --help, -h      show this help

        Replay only:
          --speed X       playback speed, 0.01…1000 (default 1: the recorded time)
          --frame N       start at frame N (the CSV's frame number); with --svg, draw that frame
          --svg-fps N     keyframes per second of an animated SVG, 0.1…240 (default 20)
          --stats         when done, print to stderr the time each frame took to read and draw
                          (median, p99, max) against the frame period of --fps, and the peak RSS

        Keys: n / right arrow  next scene     p / left arrow  previous scene
              space            pause/resume   r               restart the scene
              b                braille on/off q / Esc         quit (Ctrl-C too)
        In a replay n / p (and the arrows) step one frame forward / back, + / - change the speed.

        When stdout is not a terminal the frames are printed as plain text, separated by a
        blank line, e.g.  playground rain --frames 3 --size 60x20 | cat

        Files are written in place (through a symbolic link, never replacing it) and only when
        they are regular files. Exit status: 0 done; 1 a file could not be read or written (the
        message names it and the cause) or a replayed trace had problems; 2 a mistake in the
        command line.
        """
}
