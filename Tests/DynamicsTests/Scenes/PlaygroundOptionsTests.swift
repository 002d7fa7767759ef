import DynamicsScenes
import Testing

@Suite("Playground command line")
struct PlaygroundOptionsTests {
    @Test func defaults() throws {
        let options = try PlaygroundOptions.parse([])
        #expect(options == PlaygroundOptions())
        #expect(options.scene == nil && options.fps == 30 && !options.braille && options.csvPath == nil)
        #expect(options.frameLimit(interactive: true) == nil)
        #expect(options.frameLimit(interactive: false) == 3)
    }

    @Test func everyOption() throws {
        let options = try PlaygroundOptions.parse(["pyramid", "--fps", "60", "--frames=120", "--size", "100x30",
                                                   "--braille", "--csv", "out.csv", "--seconds", "1.5"])
        #expect(options.scene == "pyramid")
        #expect(options.fps == 60)
        #expect(options.frames == 120)
        #expect(options.width == 100 && options.height == 30)
        #expect(options.braille)
        #expect(options.csvPath == "out.csv")
        #expect(options.seconds == 1.5)
        #expect(options.frameLimit(interactive: true) == 90, "1.5 s at 60 fps is fewer than 120 frames")
        #expect(try PlaygroundOptions.parse(["--list"]).list)
        #expect(try PlaygroundOptions.parse(["-h"]).help)
        #expect(try PlaygroundOptions.parse(["--size=60X20"]).width == 60)
        #expect(try PlaygroundOptions.parse(["ui_rain"]).scene == "ui_rain")
        #expect(try PlaygroundOptions.parse(["--seconds", "0.1"]).frameLimit(interactive: false) == 3)
    }

    /// Issue 29: `--seconds 1e18` trapped converting `seconds × fps` to `Int`. The parser now
    /// refuses it; options set in code past the range are clamped, never trapped on.
    @Test func frameLimitNeverTraps() throws {
        let largest = try PlaygroundOptions.parse(["--seconds", "10000000", "--fps", "240"])
        #expect(largest.frameLimit(interactive: true) == 2_400_000_000)
        for seconds in [1e18, 1e300, .infinity, .nan, 1e-300] {
            var options = PlaygroundOptions()
            options.seconds = seconds
            options.fps = 240
            let limit = options.frameLimit(interactive: true)
            #expect(limit != nil && limit! >= 1, "\(seconds) s")
        }
    }

    @Test(arguments: [
        (["--fps"], "--fps needs a value"),
        (["--fps", "0"], "--fps needs an integer from 1 to 240, not \"0\""),
        (["--fps", "fast"], "--fps needs an integer from 1 to 240, not \"fast\""),
        (["--frames", "-2"], "--frames needs an integer from 1 to 1000000000, not \"-2\""),
        (["--seconds", "nan"], "--seconds needs a number above 0 and at most 10000000, not \"nan\""),
        // Issue 29: these once stopped the program on a Double → Int overflow (signal 4).
        (["--seconds", "1e18"], "--seconds needs a number above 0 and at most 10000000, not \"1e18\""),
        (["--frames", "99999999999999999999"], "--frames needs an integer from 1 to 1000000000, not \"99999999999999999999\""),
        (["--size", "80"], "--size needs WIDTHxHEIGHT in characters (1…1000 each), e.g. 80x24, not \"80\""),
        (["--size", "0x10"], "--size needs WIDTHxHEIGHT in characters (1…1000 each), e.g. 80x24, not \"0x10\""),
        (["--braille=yes"], "--braille takes no value"),
        (["--fast"], "unknown option --fast (see --help)"),
        (["rain", "snap"], "one scene at a time: rain or snap"),
        (["tornado"], "unknown scene tornado (see --list)"),
    ])
    func mistakesAreExplained(arguments: [String], message: String) {
        #expect(throws: PlaygroundOptions.ParseError(message: message)) {
            try PlaygroundOptions.parse(arguments)
        }
    }

    @Test func replay() throws {
        let options = try PlaygroundOptions.parse(["replay", "rain.csv", "--speed", "0.5", "--frame=40", "--braille",
                                                   "--svg", "rain.svg", "--svg-fps", "12.5", "--size", "80x24"])
        #expect(options.replayPath == "rain.csv" && options.scene == nil)
        #expect(options.speed == 0.5 && options.startFrame == 40 && options.braille)
        #expect(options.svgPath == "rain.svg" && options.svgKeyframesPerSecond == 12.5)
        let plain = try PlaygroundOptions.parse(["replay", "trace"])
        #expect(plain.replayPath == "trace" && plain.speed == 1 && plain.startFrame == nil && plain.svgPath == nil)
        #expect(plain.svgKeyframesPerSecond == 20)
        // A scene's name after `replay` is a file name, and `--svg` works for the gallery too.
        #expect(try PlaygroundOptions.parse(["replay", "pyramid"]).replayPath == "pyramid")
        #expect(try PlaygroundOptions.parse(["pyramid", "--svg", "p.svg"]).svgPath == "p.svg")
        #expect(try PlaygroundOptions.parse(["replay", "--help"]).help)
    }

    @Test(arguments: [
        (["replay"], "replay needs a trace file (FILE.csv)"),
        (["replay", "a.csv", "b.csv"], "one trace at a time: a.csv or b.csv"),
        (["replay", "a.csv", "--speed", "0"], "--speed needs a number from 0.01 to 1000, not \"0\""),
        (["replay", "a.csv", "--speed", "inf"], "--speed needs a number from 0.01 to 1000, not \"inf\""),
        (["replay", "a.csv", "--frame", "-1"], "--frame needs a frame number (0 or more), not \"-1\""),
        (["replay", "a.csv", "--seconds", "1e300"], "--seconds needs a number above 0 and at most 10000000, not \"1e300\""),
        (["replay", "a.csv", "--frame", "1e3"], "--frame needs a frame number (0 or more), not \"1e3\""),
        (["replay", "a.csv", "--svg-fps", "0"], "--svg-fps needs a number from 0.1 to 240, not \"0\""),
        (["replay", "a.csv", "--svg"], "--svg needs a value"),
        (["replay", "a.csv", "--csv", "b.csv"], "--csv is for the gallery, not for replay"),
        (["rain", "--speed", "2"], "--speed is for replay (playground replay FILE.csv --speed …)"),
        (["--frame", "3"], "--frame is for replay (playground replay FILE.csv --frame …)"),
        (["rain", "--stats"], "--stats is for replay (playground replay FILE.csv --stats …)"),
        (["replay", "a.csv", "--stats=1"], "--stats takes no value"),
    ])
    func replayMistakesAreExplained(arguments: [String], message: String) {
        #expect(throws: PlaygroundOptions.ParseError(message: message)) {
            try PlaygroundOptions.parse(arguments)
        }
    }

    @Test func usageMentionsEveryOption() {
        for flag in ["--list", "--fps", "--frames", "--seconds", "--size", "--braille", "--csv", "--help",
                     "replay", "--speed", "--frame", "--svg", "--svg-fps", "--stats"] {
            #expect(PlaygroundOptions.usage.contains(flag))
        }
    }
}
