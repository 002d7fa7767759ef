import Foundation
import Testing

@testable import Dynamics

@Suite("TextCanvas")
struct TextCanvasTests {
    static func p(_ x: Double, _ y: Double) -> CGPoint { CGPoint(x: x, y: y) }

    @Test func emptyCanvasIsSpaces() {
        for mode in [TextCanvas.Mode.plain, .braille] {
            let canvas = TextCanvas(width: 5, height: 3, mode: mode)
            #expect(canvas.lines() == ["     ", "     ", "     "])
            #expect(canvas.render() == "     \n     \n     ")
        }
        let braille = TextCanvas(width: 4, height: 2, mode: .braille)
        #expect(braille.dotWidth == 8)
        #expect(braille.dotHeight == 8)
        let plain = TextCanvas(width: 4, height: 2)
        #expect(plain.dotWidth == 4)
        #expect(plain.dotHeight == 2)
    }

    @Test func filledSquareCoversTheDotsWhoseCentresAreInside() {
        var canvas = TextCanvas(width: 8, height: 5)
        canvas.fillPolygon([Self.p(2, 1), Self.p(6, 1), Self.p(6, 4), Self.p(2, 4)])
        #expect(canvas.lines() == [
            "        ",
            "  ####  ",
            "  ####  ",
            "  ####  ",
            "        ",
        ])
        // The same square wound the other way, with a custom character.
        var reversed = TextCanvas(width: 8, height: 5)
        reversed.fillPolygon([Self.p(2, 4), Self.p(6, 4), Self.p(6, 1), Self.p(2, 1)], character: "@")
        #expect(reversed.lines() == canvas.lines().map { $0.replacingOccurrences(of: "#", with: "@") })
    }

    @Test func fillUsesTheEvenOddRule() {
        var canvas = TextCanvas(width: 6, height: 6)
        // An outer square and an inner one, joined by a zero-width bridge: a square with a hole.
        canvas.fillPolygon([
            Self.p(0, 0), Self.p(6, 0), Self.p(6, 6), Self.p(0, 6), Self.p(0, 0),
            Self.p(2, 2), Self.p(2, 4), Self.p(4, 4), Self.p(4, 2), Self.p(2, 2),
        ])
        #expect(canvas.lines() == ["######", "######", "##  ##", "##  ##", "######", "######"])
    }

    @Test func strokedSquare() {
        var canvas = TextCanvas(width: 6, height: 5)
        canvas.strokePolygon([Self.p(1, 1), Self.p(4, 1), Self.p(4, 3), Self.p(1, 3)])
        #expect(canvas.lines() == ["      ", " ++++ ", " +  + ", " ++++ ", "      "])
    }

    @Test func diagonalAndShallowLines() {
        var canvas = TextCanvas(width: 6, height: 6)
        canvas.drawLine(from: Self.p(0.5, 0.5), to: Self.p(4.5, 4.5))
        #expect(canvas.lines() == [".     ", " .    ", "  .   ", "   .  ", "    . ", "      "])

        var shallow = TextCanvas(width: 6, height: 3)
        shallow.drawLine(from: Self.p(0, 0), to: Self.p(5.9, 2.9))
        #expect(shallow.lines() == ["..    ", "  ..  ", "    .."])
        var backwards = TextCanvas(width: 6, height: 3)
        backwards.drawLine(from: Self.p(5.9, 2.9), to: Self.p(0, 0))
        #expect(backwards.lines() == shallow.lines())

        var point = TextCanvas(width: 3, height: 1)
        point.drawLine(from: Self.p(1.2, 0.3), to: Self.p(1.7, 0.9))
        #expect(point.lines() == [" . "])
    }

    @Test func brailleBitsForKnownDots() {
        var canvas = TextCanvas(width: 2, height: 1, mode: .braille)
        canvas.plot(x: 0.5, y: 0.5)  // dot (0, 0)
        canvas.plot(x: 3.2, y: 3.9)  // dot (3, 3): right column, bottom row of cell 1
        #expect(canvas.lines() == ["\u{2801}\u{2880}"])

        let expected: [(column: Int, row: Int, scalar: UInt32)] = [
            (0, 0, 0x2801), (0, 1, 0x2802), (0, 2, 0x2804), (1, 0, 0x2808),
            (1, 1, 0x2810), (1, 2, 0x2820), (0, 3, 0x2840), (1, 3, 0x2880),
        ]
        for (column, row, scalar) in expected {
            var one = TextCanvas(width: 1, height: 1, mode: .braille)
            one.plot(x: Double(column), y: Double(row))
            #expect(one.lines() == [String(Character(Unicode.Scalar(scalar)!))])
            #expect(one.isDotSet(column, row))
        }

        var full = TextCanvas(width: 1, height: 1, mode: .braille)
        full.fillPolygon([Self.p(0, 0), Self.p(2, 0), Self.p(2, 4), Self.p(0, 4)])
        #expect(full.lines() == ["\u{28FF}"])
        full.clear()
        #expect(full.lines() == [" "])
    }

    @Test func brailleLineAcrossCells() {
        var canvas = TextCanvas(width: 2, height: 1, mode: .braille)
        canvas.drawLine(from: Self.p(0, 0), to: Self.p(3, 3))  // dots (0,0) (1,1) (2,2) (3,3)
        #expect(canvas.lines() == ["\u{2811}\u{2884}"])  // 0x01|0x10, 0x04|0x80
    }

    @Test func filledCircleAndRotatedEllipse() {
        var canvas = TextCanvas(width: 10, height: 10)
        canvas.fillEllipse(center: Self.p(5, 5), radii: CGSize(width: 2, height: 2))
        let lines = canvas.lines()
        #expect(lines[3] == "    ##    ")
        #expect(lines[4] == "   ####   ")
        #expect(lines[5] == "   ####   ")
        #expect(lines[6] == "    ##    ")
        #expect(lines.joined().filter { $0 == "#" }.count == 12)

        var rotated = TextCanvas(width: 10, height: 10)
        rotated.fillEllipse(center: Self.p(5, 5), radii: CGSize(width: 3, height: 1), rotation: .pi / 2)
        var upright = TextCanvas(width: 10, height: 10)
        upright.fillEllipse(center: Self.p(5, 5), radii: CGSize(width: 1, height: 3))
        #expect(rotated.lines() == upright.lines())
        #expect(upright.lines()[2] == "    ##    ")
        #expect(upright.lines()[1] == "          ")
    }

    @Test func tinyShapesStillMarkADot() {
        var canvas = TextCanvas(width: 5, height: 3)
        canvas.fillEllipse(center: Self.p(3.7, 1.2), radii: CGSize(width: 0.1, height: 0.1))
        canvas.fillEllipse(center: Self.p(0.5, 0.5), radii: .zero)
        canvas.fillPolygon([Self.p(1.1, 2.1), Self.p(1.3, 2.1), Self.p(1.2, 2.2)], character: "*")
        canvas.fillEllipse(center: Self.p(4.5, 2.5), radii: CGSize(width: -1, height: 1))  // ignored
        #expect(canvas.lines() == ["#    ", "   # ", " *   "])
    }

    @Test func strokedEllipseStaysOnItsOutline() {
        var canvas = TextCanvas(width: 21, height: 11)
        canvas.strokeEllipse(center: Self.p(10.5, 5.5), radii: CGSize(width: 8, height: 4))
        for j in 0 ..< canvas.dotHeight {
            for i in 0 ..< canvas.dotWidth where canvas.isDotSet(i, j) {
                let u = (Double(i) + 0.5 - 10.5) / 8, v = (Double(j) + 0.5 - 5.5) / 4
                let r = (u * u + v * v).squareRoot()
                #expect(r > 0.6 && r < 1.4)
            }
        }
        #expect(canvas.isDotSet(18, 5))
        #expect(canvas.isDotSet(2, 5))
        #expect(!canvas.isDotSet(10, 5))
    }

    @Test func textOverwritesCells() {
        var canvas = TextCanvas(width: 6, height: 2)
        canvas.fillPolygon([Self.p(0, 0), Self.p(6, 0), Self.p(6, 2), Self.p(0, 2)])
        canvas.drawText("ab\ncd", atColumn: 1, row: 0)
        canvas.drawText("xyz", atColumn: -1, row: 1)
        canvas.drawText("off", atColumn: 0, row: 2)
        canvas.drawText("off", atColumn: 0, row: -1)
        canvas.drawText("far", atColumn: 6, row: 1)
        #expect(canvas.lines() == ["#ab cd", "yz####"])

        var braille = TextCanvas(width: 3, height: 1, mode: .braille)
        braille.fillPolygon([Self.p(0, 0), Self.p(6, 0), Self.p(6, 4), Self.p(0, 4)])
        braille.drawText("a ", atColumn: 1, row: 0)
        #expect(braille.lines() == ["\u{28FF}a "])
        braille.plot(x: 2, y: 0)  // dots drawn later replace the text of their cell
        #expect(braille.lines() == ["\u{28FF}\u{2801} "])
    }

    @Test func drawingOffTheCanvasIsClipped() {
        var canvas = TextCanvas(width: 10, height: 4)
        canvas.drawLine(from: Self.p(-1e6, -1e6), to: Self.p(1e6, 1e6))
        #expect(canvas.lines() == [".         ", " .        ", "  .       ", "   .      "])

        var clipped = TextCanvas(width: 4, height: 3)
        clipped.plot(x: -1, y: 0)
        clipped.plot(x: 4, y: 0)
        clipped.plot(x: 0, y: 3)
        clipped.plot(x: 1e300, y: -1e300)
        clipped.drawLine(from: Self.p(-5, -5), to: Self.p(-1, 10))
        clipped.drawLine(from: Self.p(0, 1e300), to: Self.p(1e300, 0))
        clipped.fillPolygon([Self.p(20, 20), Self.p(30, 20), Self.p(30, 30)])
        clipped.fillEllipse(center: Self.p(-100, -100), radii: CGSize(width: 5, height: 5))
        #expect(clipped.lines() == ["    ", "    ", "    "])

        var huge = TextCanvas(width: 4, height: 2)
        huge.fillPolygon([Self.p(-1e300, -1e300), Self.p(1e300, -1e300), Self.p(1e300, 1e300), Self.p(-1e300, 1e300)])
        #expect(huge.lines() == ["####", "####"])
        var bigCircle = TextCanvas(width: 4, height: 2)
        bigCircle.fillEllipse(center: Self.p(2, 1), radii: CGSize(width: 1e200, height: 1e200), rotation: 1)
        #expect(bigCircle.lines() == ["####", "####"])
        var overflow = TextCanvas(width: 4, height: 2)
        overflow.fillPolygon([Self.p(-1.7e308, 0), Self.p(1.7e308, 0), Self.p(1.7e308, 2), Self.p(-1.7e308, 2)])
        overflow.strokePolygon([Self.p(-1.7e308, 0), Self.p(1.7e308, 0), Self.p(1.7e308, 2)])
        #expect(overflow.lines().allSatisfy { $0.count == 4 })
    }

    @Test func nonFiniteCoordinatesAreIgnored() {
        for mode in [TextCanvas.Mode.plain, .braille] {
            var canvas = TextCanvas(width: 4, height: 2, mode: mode)
            canvas.plot(x: .nan, y: 1)
            canvas.plot(x: 1, y: .infinity)
            canvas.drawLine(from: Self.p(.nan, 0), to: Self.p(3, 1))
            canvas.drawLine(from: Self.p(0, 0), to: Self.p(-.infinity, 1))
            canvas.fillPolygon([Self.p(0, 0), Self.p(.nan, 0), Self.p(3, 2)])
            canvas.strokePolygon([Self.p(0, 0), Self.p(.infinity, 0), Self.p(3, 2)])
            canvas.strokePolygon([Self.p(.nan, .nan)])
            canvas.fillEllipse(center: Self.p(.nan, 1), radii: CGSize(width: 1, height: 1))
            canvas.fillEllipse(center: Self.p(1, 1), radii: CGSize(width: Double.nan, height: 1))
            canvas.fillEllipse(center: Self.p(1, 1), radii: CGSize(width: 1, height: 1), rotation: .infinity)
            canvas.strokeEllipse(center: Self.p(1, 1), radii: CGSize(width: CGFloat.infinity, height: 1))
            canvas.fillPolygon([])
            canvas.strokePolygon([])
            #expect(canvas.lines() == ["    ", "    "])
        }
    }

    @Test func degenerateSizes() {
        var empty = TextCanvas(width: -3, height: -1)
        empty.drawLine(from: Self.p(0, 0), to: Self.p(5, 5))
        empty.fillPolygon([Self.p(0, 0), Self.p(5, 0), Self.p(5, 5)])
        empty.fillEllipse(center: Self.p(0, 0), radii: CGSize(width: 3, height: 3))
        empty.drawText("hello", atColumn: 0, row: 0)
        empty.plot(x: 0, y: 0)
        #expect(empty.lines() == [])
        #expect(empty.render() == "")

        var thin = TextCanvas(width: 0, height: 2, mode: .braille)
        thin.drawLine(from: Self.p(0, 0), to: Self.p(5, 5))
        thin.strokeEllipse(center: Self.p(0, 0), radii: CGSize(width: 3, height: 3))
        #expect(thin.lines() == ["", ""])
    }

    @Test(arguments: [TextCanvas.Mode.plain, .braille])
    func everyLineHasExactlyWidthCharacters(mode: TextCanvas.Mode) {
        var rng: UInt64 = 7
        func random(_ range: ClosedRange<Double>) -> Double {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + (range.upperBound - range.lowerBound) * Double(rng >> 11) / Double(1 << 53)
        }
        for (width, height) in [(1, 1), (7, 3), (40, 12), (80, 24)] {
            var canvas = TextCanvas(width: width, height: height, mode: mode)
            for _ in 0 ..< 40 {
                let a = Self.p(random(-20 ... 200), random(-20 ... 120))
                let b = Self.p(random(-20 ... 200), random(-20 ... 120))
                let c = Self.p(random(-20 ... 200), random(-20 ... 120))
                canvas.drawLine(from: a, to: b)
                canvas.fillPolygon([a, b, c])
                canvas.strokePolygon([a, b, c])
                canvas.fillEllipse(center: a, radii: CGSize(width: random(0 ... 30), height: random(0 ... 30)),
                                   rotation: random(-4 ... 4))
                canvas.strokeEllipse(center: b, radii: CGSize(width: random(0 ... 30), height: random(0 ... 30)))
                canvas.plot(x: c.x, y: c.y)
            }
            canvas.drawText("status: t = 1.0 s \t ünïcödé \u{1B}[0m and far too long for the line",
                            atColumn: Int(random(-10 ... 10)), row: height - 1)
            let lines = canvas.lines()
            #expect(lines.count == height)
            for line in lines {
                #expect(line.count == width)
                #expect(line.unicodeScalars.count == width)
                #expect(!line.contains("\u{2800}"))
                #expect(line.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control })
            }
            #expect(canvas.render().split(separator: "\n", omittingEmptySubsequences: false).count == height)
        }
    }

    @Test func controlCharactersAsMarksBecomeSpaces() {
        var canvas = TextCanvas(width: 3, height: 1)
        canvas.plot(x: 1, y: 0, character: "\n")
        #expect(canvas.lines() == ["   "])
    }
}
