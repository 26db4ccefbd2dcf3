"""Writes the bench's two pages exactly as bench/cup-bench/src/web.rs
large_page() and huge_page() make them, and scrolled.html from the huge one."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))


def large_page():
    p = ["<!doctype html><html><head><title>Large page</title></head><body><header><nav><ul>"]
    for i in range(1, 31):
        p.append(f'<li><a href="/section/{i}">Section {i}</a></li>')
    p.append('</ul></nav><form role="search"><input type="search" aria-label="Search"><button>Go</button></form></header><main><h1>Shipping details</h1>')
    for a in range(1, 16):
        p.append(f'<article><h2>Article {a}</h2><p>Paragraph one of article {a} with <a href="/a/{a}">a link</a> and <em>emphasis</em>.</p><p>Second paragraph of article {a}.</p><ul>')
        for i in range(1, 11):
            p.append(f"<li>Point {i} of article {a}</li>")
        p.append("</ul><button>Like</button><button>Share</button></article>")
    p.append("<form><fieldset><legend>Address</legend>")
    for f in ["Name", "Street", "City", "Postcode", "Country", "Phone", "Email"]:
        p.append(f'<label>{f} <input name="{f}"></label>')
    p.append('<label><input type="checkbox"> Gift wrap</label><select><option>Standard</option><option>Express</option></select><button>Order</button></fieldset></form><table><thead><tr><th>Item</th><th>Qty</th><th>Price</th><th>Total</th><th>Action</th></tr></thead><tbody>')
    for r in range(1, 51):
        p.append(f"<tr><td>Item {r}</td><td>{r}</td><td>{r}.00</td><td>{r}0.00</td><td><button>Remove</button></td></tr>")
    p.append("</tbody></table></main><footer>")
    for i in range(1, 21):
        p.append(f'<a href="/f/{i}">Footer link {i}</a> ')
    p.append("</footer></body></html>")
    return "".join(p)


def huge_page():
    p = ["<!doctype html><html><head><title>Huge page</title></head><body><h1>Catalogue</h1><ul>"]
    for i in range(1, 2501):
        p.append(f'<li><a href="/p/{i}">Product {i}</a></li>')
    p.append("</ul></body></html>")
    return "".join(p)


def scrolled_page():
    """The huge page with a fixed header and an inner scroller, scrolled to
    y=20000 on load (bounds are viewport-relative)."""
    h = huge_page().replace(
        "<body>", '<body><header style="position:fixed;top:0;left:0;right:0;background:#fff"><a href="/home">Home</a> '
        '<button>Menu</button></header><div style="height:40px"></div>')
    return h.replace(
        "</body>", '<div style="overflow:auto;height:100px" id="inner"><p style="height:400px">Inner scroller '
        '<a href="#z">deep link</a></p></div><script>window.scrollTo(0, 20000); '
        'document.getElementById("inner").scrollTop = 50;</script></body>')


if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "pages"), exist_ok=True)
    for name, html in [("bench-large.html", large_page()), ("bench-huge.html", huge_page()),
                       ("scrolled.html", scrolled_page())]:
        with open(os.path.join(HERE, "pages", name), "w") as f:
            f.write(html)
        print(name, len(html), "bytes")
