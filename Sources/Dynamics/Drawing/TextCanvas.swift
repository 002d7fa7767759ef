import Foundation

/// A grid of `width × height` characters to draw on with dots, the surface of `ASCIIRenderer`.
///
/// Drawing happens in *dot* coordinates (`Double`, y down, origin at the top-left corner). Dot
/// `(i, j)` is the unit square `[i, i+1) × [j, j+1)`, its centre at `(i + 0.5, j + 0.5)`:
/// `plot` marks the dot a point falls in, fills mark the dots whose centres are inside.
///
/// Two modes:
/// - `.plain`: one dot per cell, drawn with a character chosen per kind of mark, so shapes stay
///   readable in any font: `fillCharacter` `#` for filled shapes, `strokeCharacter` `+` for
///   outlines, `lineCharacter` `.` for lines, `pointCharacter` `o` for single points. Every
///   method takes a `character` to override its default.
/// - `.braille`: 2 × 4 dots per cell, each cell the Unicode braille pattern U+2800 + bits
///   (dot rows 0–2 of the left column are bits 0x01, 0x02, 0x04, of the right 0x08, 0x10, 0x20;
///   row 3 is 0x40 left, 0x80 right). Characters passed to drawing methods are ignored.
///
/// A control character given as a mark shows as a space, so lines keep their width.
/// Later marks overwrite earlier ones; `drawText` writes whole cells over any dots. Everything is
/// clipped to the canvas, and a mark with a non-finite coordinate is ignored.
///
/// `lines()` gives exactly `height` lines of exactly `width` characters; an empty cell is a
/// space (in braille mode too, never U+2800).
struct TextCanvas {
    /// How cells map to dots.
    enum Mode: Sendable {
        /// One dot per cell.
        case plain
        /// 2 × 4 dots per cell, as Unicode braille patterns.
        case braille
    }

    /// The canvas size in characters (never negative).
    let width: Int, height: Int
    /// How cells map to dots.
    let mode: Mode

    /// The plain-mode character of filled shapes: `#`.
    var fillCharacter: Character = "#"
    /// The plain-mode character of outlines (`strokePolygon`, `strokeEllipse`): `+`.
    var strokeCharacter: Character = "+"
    /// The plain-mode character of `drawLine`: `.`.
    var lineCharacter: Character = "."
    /// The plain-mode character of `plot`: `o`.
    var pointCharacter: Character = "o"

    /// Per cell: a character that shows as is (plain dots and text), or `nil`.
    private var glyphs: [Character?]
    /// Per cell: braille dot bits (braille mode only).
    private var bits: [UInt8]

    /// Creates an empty canvas of `width × height` characters (negative sizes count as 0).
    init(width: Int, height: Int, mode: Mode = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.mode = mode
        glyphs = Array(repeating: nil, count: self.width * self.height)
        bits = Array(repeating: 0, count: mode == .braille ? self.width * self.height : 0)
    }

    /// Dots across: `width`, or `2 · width` in braille mode.
    var dotWidth: Int { mode == .braille ? 2 * width : width }
    /// Dots down: `height`, or `4 · height` in braille mode.
    var dotHeight: Int { mode == .braille ? 4 * height : height }

    /// Empties every cell.
    mutating func clear() {
        for i in glyphs.indices { glyphs[i] = nil }
        for i in bits.indices { bits[i] = 0 }
    }

    // MARK: Dots

    /// Marks the dot at integer dot coordinates; off-canvas dots are ignored.
    mutating func setDot(_ i: Int, _ j: Int, _ character: Character) {
        guard i >= 0, j >= 0, i < dotWidth, j < dotHeight else { return }
        switch mode {
        case .plain:
            glyphs[j * width + i] = character
        case .braille:
            let cell = (j / 4) * width + i / 2
            glyphs[cell] = nil
            bits[cell] |= Self.brailleBit(column: i % 2, row: j % 4)
        }
    }

    /// Whether the dot at integer dot coordinates is marked (in plain mode: holds a character
    /// other than a space).
    func isDotSet(_ i: Int, _ j: Int) -> Bool {
        guard i >= 0, j >= 0, i < dotWidth, j < dotHeight else { return false }
        switch mode {
        case .plain:
            return glyphs[j * width + i].map { $0 != " " } ?? false
        case .braille:
            return bits[(j / 4) * width + i / 2] & Self.brailleBit(column: i % 2, row: j % 4) != 0
        }
    }

    /// The braille bit of the dot at `column` (0–1), `row` (0–3) of a cell.
    static func brailleBit(column: Int, row: Int) -> UInt8 {
        switch (column, row) {
        case (0, 3): return 0x40
        case (1, 3): return 0x80
        default: return UInt8(1) << UInt8(column * 3 + row)
        }
    }

    /// Marks the dot that the point `(x, y)` falls in.
    mutating func plot(x: Double, y: Double, character: Character? = nil) {
        guard let i = Self.dotIndex(x), let j = Self.dotIndex(y) else { return }
        setDot(i, j, character ?? pointCharacter)
    }

    /// The index of the dot that `value` falls in, or `nil` when not finite or far off any canvas.
    private static func dotIndex(_ value: Double) -> Int? {
        guard value.isFinite else { return nil }
        let floored = value.rounded(.down)
        guard floored > -1e9, floored < 1e9 else { return nil }
        return Int(floored)
    }

    // MARK: Lines

    /// Draws the segment between two points, marking every dot Bresenham's algorithm visits
    /// between the dots the ends fall in (clipped to the canvas first, so far-away ends cost
    /// nothing).
    mutating func drawLine(from start: CGPoint, to end: CGPoint, character: Character? = nil) {
        let mark = character ?? lineCharacter
        var x0 = Double(start.x), y0 = Double(start.y), x1 = Double(end.x), y1 = Double(end.y)
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, dotWidth > 0, dotHeight > 0 else { return }
        guard Self.clip(&x0, &y0, &x1, &y1, maxX: Double(dotWidth), maxY: Double(dotHeight)) else { return }
        guard let i0 = Self.dotIndex(x0), let j0 = Self.dotIndex(y0),
              let i1 = Self.dotIndex(x1), let j1 = Self.dotIndex(y1) else { return }
        var i = i0, j = j0
        let di = abs(i1 - i0), dj = -abs(j1 - j0)
        let si = i0 < i1 ? 1 : -1, sj = j0 < j1 ? 1 : -1
        var error = di + dj
        while true {
            setDot(i, j, mark)
            if i == i1 && j == j1 { break }
            let twice = 2 * error
            if twice >= dj { error += dj; i += si }
            if twice <= di { error += di; j += sj }
        }
    }

    /// Clips a segment to `[-1, maxX + 1] × [-1, maxY + 1]` (Liang–Barsky); `false` when
    /// nothing is left.
    private static func clip(
        _ x0: inout Double, _ y0: inout Double, _ x1: inout Double, _ y1: inout Double,
        maxX: Double, maxY: Double
    ) -> Bool {
        let dx = x1 - x0, dy = y1 - y0
        var t0 = 0.0, t1 = 1.0
        let tests: [(p: Double, q: Double)] = [
            (-dx, x0 + 1), (dx, maxX + 1 - x0),
            (-dy, y0 + 1), (dy, maxY + 1 - y0),
        ]
        for (p, q) in tests {
            if p == 0 {
                if q < 0 { return false }
            } else {
                let t = q / p
                if p < 0 {
                    if t > t1 { return false }
                    t0 = max(t0, t)
                } else {
                    if t < t0 { return false }
                    t1 = min(t1, t)
                }
            }
        }
        guard t0.isFinite, t1.isFinite else { return false }
        let ox = x0, oy = y0
        if t1 < 1 { x1 = ox + t1 * dx; y1 = oy + t1 * dy }
        if t0 > 0 { x0 = ox + t0 * dx; y0 = oy + t0 * dy }
        return true
    }

    // MARK: Polygons

    /// Fills a polygon (implicitly closed; any winding; self-intersections by the even-odd
    /// rule): marks every dot whose centre is inside. A polygon too thin to cover any dot centre
    /// still marks the dot under the mean of its vertices, so small items stay visible.
    mutating func fillPolygon(_ points: [CGPoint], character: Character? = nil) {
        let mark = character ?? fillCharacter
        guard !points.isEmpty, dotWidth > 0, dotHeight > 0 else { return }
        let xs = points.map { Double($0.x) }, ys = points.map { Double($0.y) }
        guard xs.allSatisfy(\.isFinite), ys.allSatisfy(\.isFinite) else { return }

        let rowRange = Self.centreRange(low: ys.min()!, high: ys.max()!, count: dotHeight)
        var marked = false
        var crossings: [Double] = []
        for j in rowRange {
            let y = Double(j) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for a in points.indices {
                let b = a + 1 == points.count ? 0 : a + 1
                let ya = ys[a], yb = ys[b]
                // Half-open in y, so a vertex on the scanline is counted once.
                guard (ya <= y && y < yb) || (yb <= y && y < ya) else { continue }
                crossings.append(xs[a] + (y - ya) / (yb - ya) * (xs[b] - xs[a]))
            }
            crossings.sort()
            var k = 0
            while k + 1 < crossings.count {
                for i in Self.centreRange(low: crossings[k], high: crossings[k + 1], count: dotWidth, halfOpen: true) {
                    setDot(i, j, mark)
                    marked = true
                }
                k += 2
            }
        }
        if !marked {
            let n = Double(points.count)
            plot(x: xs.reduce(0, +) / n, y: ys.reduce(0, +) / n, character: mark)
        }
    }

    /// The dots `0 ..< count` whose centres `i + 0.5` lie in `[low, high]` (or `[low, high)`).
    private static func centreRange(low: Double, high: Double, count: Int, halfOpen: Bool = false) -> Range<Int> {
        let first = max(0, (low - 0.5).rounded(.up))
        var last = min(Double(count - 1), (high - 0.5).rounded(.down))
        if halfOpen && last + 0.5 >= high { last -= 1 }
        guard first <= last else { return 0 ..< 0 }
        return Int(first) ..< Int(last) + 1
    }

    /// Draws a polygon's outline: a line between consecutive points, and from the last back to
    /// the first when `closed` (default `true`). A polygon with a non-finite point is ignored.
    mutating func strokePolygon(_ points: [CGPoint], closed: Bool = true, character: Character? = nil) {
        let mark = character ?? strokeCharacter
        guard let first = points.first,
              points.allSatisfy({ Double($0.x).isFinite && Double($0.y).isFinite }) else { return }
        if points.count == 1 {
            plot(x: Double(first.x), y: Double(first.y), character: mark)
            return
        }
        for a in 0 ..< points.count - 1 {
            drawLine(from: points[a], to: points[a + 1], character: mark)
        }
        if closed && points.count > 2 {
            drawLine(from: points[points.count - 1], to: first, character: mark)
        }
    }

    // MARK: Ellipses

    /// Fills an ellipse: marks every dot whose centre is inside. An ellipse too small to cover
    /// any dot centre still marks the dot under its centre.
    ///
    /// - Parameters:
    ///   - center: The centre, in dots.
    ///   - radii: The half-axes, in dots: `width` along the ellipse's own x axis, `height` along
    ///     its y axis. Negative or non-finite radii draw nothing.
    ///   - rotation: The turn of the ellipse's x axis from +x toward +y, in radians; default 0.
    mutating func fillEllipse(center: CGPoint, radii: CGSize, rotation: Double = 0, character: Character? = nil) {
        let mark = character ?? fillCharacter
        let cx = Double(center.x), cy = Double(center.y)
        let a = Double(radii.width), b = Double(radii.height)
        guard cx.isFinite, cy.isFinite, a.isFinite, b.isFinite, rotation.isFinite, a >= 0, b >= 0,
              dotWidth > 0, dotHeight > 0 else { return }
        let cosine = cos(rotation), sine = sin(rotation)
        let extentX = ((a * cosine) * (a * cosine) + (b * sine) * (b * sine)).squareRoot()
        let extentY = ((a * sine) * (a * sine) + (b * cosine) * (b * cosine)).squareRoot()
        var marked = false
        if a > 0 && b > 0 {
            for j in Self.centreRange(low: cy - extentY, high: cy + extentY, count: dotHeight) {
                let dy = Double(j) + 0.5 - cy
                for i in Self.centreRange(low: cx - extentX, high: cx + extentX, count: dotWidth) {
                    let dx = Double(i) + 0.5 - cx
                    let u = (dx * cosine + dy * sine) / a
                    let v = (-dx * sine + dy * cosine) / b
                    if u * u + v * v <= 1 {
                        setDot(i, j, mark)
                        marked = true
                    }
                }
            }
        }
        if !marked {
            plot(x: cx, y: cy, character: mark)
        }
    }

    /// Fills an ellipse given by its centre and two half-axis vectors (in dots), which need not
    /// be perpendicular: the image of a rotated ellipse under a scale that differs across and
    /// down. Marks every dot whose centre `c + u·axisX + v·axisY` has `u² + v² ≤ 1`. An ellipse
    /// too small (or too flat) to cover any dot centre still marks the dot under its centre;
    /// non-finite values draw nothing.
    mutating func fillEllipse(center: CGPoint, axisX: CGPoint, axisY: CGPoint, character: Character? = nil) {
        let mark = character ?? fillCharacter
        let cx = Double(center.x), cy = Double(center.y)
        let ax = Double(axisX.x), ay = Double(axisX.y), bx = Double(axisY.x), by = Double(axisY.y)
        guard cx.isFinite, cy.isFinite, ax.isFinite, ay.isFinite, bx.isFinite, by.isFinite,
              dotWidth > 0, dotHeight > 0 else { return }
        let determinant = ax * by - ay * bx
        let extentX = (ax * ax + bx * bx).squareRoot()
        let extentY = (ay * ay + by * by).squareRoot()
        var marked = false
        if determinant != 0 && determinant.isFinite {
            for j in Self.centreRange(low: cy - extentY, high: cy + extentY, count: dotHeight) {
                let dy = Double(j) + 0.5 - cy
                for i in Self.centreRange(low: cx - extentX, high: cx + extentX, count: dotWidth) {
                    let dx = Double(i) + 0.5 - cx
                    let u = (dx * by - dy * bx) / determinant
                    let v = (ax * dy - ay * dx) / determinant
                    if u * u + v * v <= 1 {
                        setDot(i, j, mark)
                        marked = true
                    }
                }
            }
        }
        if !marked {
            plot(x: cx, y: cy, character: mark)
        }
    }

    /// Draws an ellipse's outline as a polygon of 48 sides (fewer for small ellipses).
    /// Parameters as in `fillEllipse`.
    mutating func strokeEllipse(center: CGPoint, radii: CGSize, rotation: Double = 0, character: Character? = nil) {
        let cx = Double(center.x), cy = Double(center.y)
        let a = Double(radii.width), b = Double(radii.height)
        guard cx.isFinite, cy.isFinite, a.isFinite, b.isFinite, rotation.isFinite, a >= 0, b >= 0 else { return }
        let sides = max(8, min(48, Int((2 * Double.pi * max(a, b)).rounded(.up))))
        let cosine = cos(rotation), sine = sin(rotation)
        let points = (0 ..< sides).map { k -> CGPoint in
            let t = 2 * Double.pi * Double(k) / Double(sides)
            let u = a * cos(t), v = b * sin(t)
            return CGPoint(x: cx + u * cosine - v * sine, y: cy + u * sine + v * cosine)
        }
        strokePolygon(points, character: character ?? strokeCharacter)
    }

    // MARK: Text

    /// Writes `text` into cells, one `Character` per cell from `column` on `row`, over whatever
    /// was there (spaces included). Characters off the canvas are dropped; control characters
    /// (newlines, tabs …) become spaces. Assumes one terminal column per character.
    mutating func drawText(_ text: String, atColumn column: Int, row: Int) {
        guard row >= 0, row < height else { return }
        var c = column
        for character in text {
            if c >= width { break }
            if c >= 0 {
                let cell = row * width + c
                glyphs[cell] = Self.isControl(character) ? " " : character
                if mode == .braille { bits[cell] = 0 }
            }
            c += 1
        }
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    // MARK: Output

    /// The character shown in the cell at `column`, `row`; a space when empty or off-canvas.
    func character(atColumn column: Int, row: Int) -> Character {
        guard column >= 0, row >= 0, column < width, row < height else { return " " }
        let cell = row * width + column
        if let glyph = glyphs[cell] { return Self.isControl(glyph) ? " " : glyph }
        if mode == .braille, bits[cell] != 0 {
            return Character(Unicode.Scalar(0x2800 + UInt32(bits[cell]))!)
        }
        return " "
    }

    /// The canvas as exactly `height` lines of exactly `width` characters, without line endings.
    func lines() -> [String] {
        (0 ..< height).map { row in
            var line = ""
            line.reserveCapacity(width)
            for column in 0 ..< width {
                line.append(character(atColumn: column, row: row))
            }
            return line
        }
    }

    /// The canvas as `height` lines joined by `"\n"`, with no line ending after the last.
    func render() -> String {
        lines().joined(separator: "\n")
    }
}
