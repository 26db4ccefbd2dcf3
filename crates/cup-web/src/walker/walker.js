(function (options) {
  // cup web walker (research): one pass over a frame's flat tree (open
  // shadow roots and slots included) that computes what Chromium's
  // accessibility tree exposes for each node: role (Chromium's role
  // strings: ARIA names, plus StaticText, LabelText, LayoutTable...), name
  // and description (accname 1.2 with Chromium's choices), value, states,
  // heading level, placeholder, url and bounds (CSS px, viewport-relative).
  // Meant to run in an isolated world (Page.createIsolatedWorld). Returns one
  // JSON-able value: a string table and column arrays (see REPORT.md).
  //
  // options (all optional):
  //   stringify: true      return JSON.stringify(result) (faster over CDP)
  //   textRects: 'auto'    text bounds: 'auto' | true (a Range rect each) | false
  //   bounds: true         false: no rects at all (for measuring)
  //   keepNodes: true      keep node handles in globalThis.__cupWalker.nodes
  //   boundsScale: dpr     bounds unit = 1/boundsScale CSS px
  //   encoding: 'compact'  'plain': plain columns (debugging)
  //   styles: 'scan'       'all': read every computed property of every element
  //   pseudo: 'scan'       'all': look for ::before/::after on every element
  //   display: 'fast'      'read': read display of every element
  //   patch: gen           the generation of the walk the reader holds: when
  //                        only states changed since (see tryPatch), answer
  //                        just the changed rows of it
  //   maxAge: 5000         ms after which a walk is whole again anyway
  'use strict';
  options = options || {};
  var T0 = performance.now();
  var doc = document;
  var win = window;
  // Text node bounds: 'all' (a Range rect each), 'auto' (default: the
  // parent's box when the text is the only child of an inline element,
  // else a Range rect), false (none).
  var TEXT_RECTS = options.textRects === undefined ? 'auto' : options.textRects === true ? 'all' : options.textRects;
  var BOUNDS = options.bounds !== false;          // (off: for measuring)
  var KEEP_NODES = options.keepNodes !== false;   // node handles for actions

  // Persistent state of this isolated world: stable ids across walks.
  var G = globalThis.__cupWalker;
  if (!G || G.doc !== doc) {
    G = globalThis.__cupWalker = { doc: doc, ids: new WeakMap(), next: 1, nodes: [], gen: 0 };
  }

  // ---- output ------------------------------------------------------------
  var strings = [''];
  var stringIds = new Map();
  stringIds.set('', 0);
  function S(s) {
    if (!s) return 0;
    var i = stringIds.get(s);
    if (i === undefined) { i = strings.length; strings.push(s); stringIds.set(s, i); }
    return i;
  }
  var oParent = [], oRole = [], oName = [], oDesc = [], oValue = [], oFlags = [], oLevel = [], oId = [], oTag = [];
  var oBounds = [];
  // How each row's box is read (so a splice can read every box again):
  // BK_NONE no box, BK_EL the element's border box, BK_RANGE a text
  // node's Range, BK_UNION the union of its children (display: contents),
  // BK_PARENT its parent row's box, BK_VIEW the viewport.
  var BK_NONE = -1, BK_EL = -2, BK_RANGE = -3, BK_UNION = -4, BK_PARENT = -5, BK_VIEW = -6;
  var oBk = [];
  var handles = [];
  // url: absolute URLs; href: raw href attributes (resolved against
  // result.base by the reader: cheaper than the href property).
  var extra = { placeholder: [], url: [], href: [], valuemin: [], valuemax: [], valuetext: [], frames: [], attrs: [] };
  var count = 0;
  var controls = [];   // indices of the form controls (re-read by a patch)
  var errors = 0, firstError = '';

  // State flags (bit positions documented in REPORT.md).
  var F_FOCUSABLE = 1, F_FOCUSED = 2, F_DISABLED = 4, F_READONLY = 8, F_REQUIRED = 16,
      F_EDITABLE = 32, F_RICH = 64, F_CHECKED = 128, F_MIXED = 256, F_CHECKABLE = 512,
      F_SELECTED = 1024, F_SELECTABLE = 2048, F_EXPANDED = 4096, F_COLLAPSED = 8192,
      F_PRESSED = 16384, F_PRESSED_MIXED = 32768, F_TOGGLE = 65536, F_BUSY = 131072,
      F_MODAL = 262144, F_MULTISELECTABLE = 524288, F_MULTILINE = 1048576,
      F_INVALID = 2097152, F_FRAME = 4194304, F_PSEUDO = 8388608, F_NOBOX = 16777216, F_SCROLLABLE = 33554432;
  var REPLACED = new Set(['img', 'input', 'button', 'select', 'textarea', 'svg', 'canvas', 'iframe', 'video',
    'audio', 'object', 'embed', 'meter', 'progress']);
  var CONTROL_TAGS = new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset']);
  // Attributes passed on as they are (type, role, onclick and the ARIA
  // properties Chromium reports without computing them).
  var OUT_ATTRS = ['type', 'role', 'onclick', 'aria-orientation', 'aria-autocomplete', 'aria-live',
    'aria-keyshortcuts', 'aria-roledescription', 'aria-posinset', 'aria-setsize', 'aria-rowindex',
    'aria-colindex', 'aria-rowcount', 'aria-colcount'];
  var FOCUSABLE_SEL = 'a[href],button,input,select,textarea,summary,[tabindex],[contenteditable]';

  // ---- computed style, read sparingly ----------------------------------------
  // Each element's CSSStyleDeclaration is made once and its display read
  // (every element needs it). The other properties cost about as much each,
  // so they are read only where something may set them: an author rule
  // whose selector matches the element (found once per walk from the style
  // sheets, see scanSheets), a style attribute, the user-agent sheet (per
  // tag), or a shadow tree (always read there). Elsewhere they are inherited
  // from the flat-tree parent (visibility, white-space, text-transform) or
  // initial (position, float, overflow, content-visibility).
  var K_V = 1, K_WS = 2, K_TT = 4, K_POS = 8, K_FL = 16, K_OV = 32, K_CV = 64, K_D = 128, K_ALL = 255;
  // display of the common elements that no author rule styles: the
  // user-agent default (then no style object is made for them at all).
  var UA_DISPLAY = new Map();
  ('span a em strong b i u s small code kbd samp var sub sup mark abbr cite q time dfn bdi bdo font label big tt ' +
   'strike ins del').split(' ').forEach(function (t) { UA_DISPLAY.set(t, 'inline'); });
  ('div p section article header footer nav main aside h1 h2 h3 h4 h5 h6 blockquote pre address figure ' +
   'figcaption form center hgroup search ul ol menu dl dd dt').split(' ').forEach(function (t) { UA_DISPLAY.set(t, 'block'); });
  UA_DISPLAY.set('li', 'list-item');
  var FAST_DISPLAY = options.display !== 'read';
  var UA_MASK = new Map([['pre', K_WS], ['xmp', K_WS], ['listing', K_WS], ['plaintext', K_WS], ['nobr', K_WS],
    ['td', K_WS], ['th', K_WS], ['textarea', K_WS | K_TT | K_OV], ['button', K_WS | K_TT], ['select', K_WS | K_TT | K_OV],
    ['option', K_WS | K_TT], ['input', K_TT | K_OV], ['dialog', K_POS | K_OV], ['iframe', K_OV], ['img', K_OV],
    ['svg', K_OV], ['video', K_OV], ['canvas', K_OV], ['embed', K_OV], ['object', K_OV], ['marquee', K_OV | K_WS],
    ['summary', K_WS], ['details', K_CV]]);
  var recs = new Map();
  function R(el) {
    var r = recs.get(el);
    if (r === undefined) {
      r = { st: null, d: undefined, m: -1, v: undefined, ts: undefined, pos: undefined, fl: undefined,
        ov: undefined, cv: undefined };
      recs.set(el, r);
    }
    return r;
  }
  function ST(r, el) { return r.st || (r.st = win.getComputedStyle(el)); }
  function styleOf(el) { return ST(R(el), el); }
  // display; parentDisplay when the caller knows it.
  function D(el, parentDisplay) {
    var r = R(el);
    if (r.d === undefined) {
      var m = readMask(el, r);
      var ua = FAST_DISPLAY && !(m & K_D) ? UA_DISPLAY.get(el.localName) : undefined;
      if (ua === undefined) r.d = ST(r, el).display;
      else {
        if (ua === 'inline') {
          // Blockified: a flex/grid item, absolutely positioned or floated.
          if (parentDisplay === undefined) { var p = flatParent(el); parentDisplay = p ? D(p) : 'block'; }
          if (parentDisplay === 'flex' || parentDisplay === 'inline-flex' || parentDisplay === 'grid' ||
              parentDisplay === 'inline-grid') ua = 'block';
          else { var ps = POS(el); if (ps === 'absolute' || ps === 'fixed' || FL(el) !== 'none') ua = 'block'; }
        }
        r.d = ua;
      }
    }
    return r.d;
  }
  // Which properties must be read for this element (bit mask).
  function readMask(el, r, a, shadow) {
    if (r.m >= 0) return r.m;
    var m;
    if (STYLE_ALL) m = K_ALL;
    else {
      var styleAttr = a ? a.style != null : el.hasAttribute('style');
      // Shadow trees, their hosts (:host rules) and slotted elements
      // (::slotted rules) are styled by sheets the scan did not read.
      if (shadow === undefined) shadow = el.getRootNode() !== doc || !!el.shadowRoot || !!el.assignedSlot;
      if (styleAttr || shadow) m = K_ALL;
      else {
        m = UA_MASK.get(el.localName) || 0;
        var c = candsFor(el).get(el);
        if (c) m |= c;
        if (a ? a.any && a.popover != null : el.hasAttribute('popover')) m |= K_POS | K_D;
        if (a ? a.any && a.hidden != null : el.hasAttribute('hidden')) m |= K_CV | K_D;
      }
    }
    r.m = m;
    return m;
  }
  function flatParent(el) {
    var p = el.assignedSlot || el.parentElement;
    if (!p) { var pn = el.parentNode; if (pn && pn.nodeType === 11) p = pn.host; }
    return p;
  }
  // visibility is 'visible' (inherited).
  function V(el) {
    var r = R(el);
    if (r.v === undefined) {
      if (readMask(el, r) & K_V) r.v = ST(r, el).visibility === 'visible';
      else { var p = flatParent(el); r.v = p ? V(p) : true; }
    }
    return r.v;
  }
  function POS(el) {
    var r = R(el);
    if (r.pos === undefined) r.pos = (readMask(el, r) & K_POS) ? ST(r, el).position : 'static';
    return r.pos;
  }
  function FL(el) {
    var r = R(el);
    if (r.fl === undefined) r.fl = (readMask(el, r) & K_FL) ? ST(r, el).float : 'none';
    return r.fl;
  }
  // overflow: 2 when auto/scroll on an axis, 0 otherwise.
  function OV(el) {
    var r = R(el);
    if (r.ov === undefined) {
      r.ov = 0;
      if (readMask(el, r) & K_OV) {
        var o = ST(r, el).overflow;
        if (o.indexOf('auto') >= 0 || o.indexOf('scroll') >= 0 || o.indexOf('overlay') >= 0) r.ov = 2;
      }
    }
    return r.ov;
  }
  function CVH(el) {
    var r = R(el);
    if (r.cv === undefined) r.cv = (readMask(el, r) & K_CV) ? ST(r, el).contentVisibility === 'hidden' : false;
    return r.cv;
  }
  var range = doc.createRange();

  // ---- ARIA vocabulary -----------------------------------------------------
  var ARIA_ROLES = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox ' +
    'code columnheader combobox comment complementary contentinfo definition deletion dialog directory document ' +
    'emphasis feed figure form generic grid gridcell group heading img image insertion link list listbox listitem ' +
    'log main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note ' +
    'option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search ' +
    'searchbox sectionheader sectionfooter separator slider spinbutton status strong subscript suggestion superscript switch tab ' +
    'table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem ' +
    'doc-abstract doc-acknowledgments doc-afterword doc-appendix doc-backlink doc-biblioentry doc-bibliography ' +
    'doc-biblioref doc-chapter doc-colophon doc-conclusion doc-cover doc-credit doc-credits doc-dedication ' +
    'doc-endnote doc-endnotes doc-epigraph doc-epilogue doc-errata doc-example doc-footnote doc-foreword ' +
    'doc-glossary doc-glossref doc-index doc-introduction doc-noteref doc-notice doc-pagebreak doc-pagefooter ' +
    'doc-pageheader doc-pagelist doc-part doc-preface doc-prologue doc-pullquote doc-qna doc-subtitle doc-tip doc-toc ' +
    'graphics-document graphics-object graphics-symbol').split(' '));
  // Roles whose name may come from their content (accname 2F), as Chromium
  // applies it (rows only inside grids, see below).
  var NAME_FROM_CONTENT = new Set(('button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox ' +
    'menuitemradio option radio rowheader switch tab tooltip treeitem DisclosureTriangle LayoutTableCell ' +
    'sectionhead doc-backlink doc-biblioref doc-glossref doc-noteref comment suggestion term').split(' '));
  // Roles on which a name is prohibited: title is a description there.
  var NAME_PROHIBITED = new Set(('caption code deletion emphasis generic insertion paragraph strong subscript ' +
    'superscript time mark').split(' '));
  // Roles Chromium always keeps (never "uninteresting").
  var TEXT_INPUTS = new Set(['text', 'email', 'tel', 'url', 'password', 'search', '']);
  var RANGE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);
  var CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
  var SELECTABLE_ROLES = new Set(['tab', 'option', 'row', 'gridcell', 'treeitem', 'columnheader', 'rowheader']);
  var EXPANDABLE_ROLES = new Set(['button', 'combobox', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'row', 'tab', 'treeitem', 'checkbox', 'switch', 'gridcell', 'columnheader', 'rowheader', 'application',
    'DisclosureTriangle', 'listbox', 'menubar', 'menu', 'tree', 'treegrid', 'grid', 'group', 'region', 'dialog']);
  var MULTISELECT_ROLES = new Set(['listbox', 'grid', 'tree', 'treegrid', 'tablist']);
  var READONLY_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'grid', 'gridcell', 'treegrid', 'checkbox',
    'radiogroup', 'slider', 'spinbutton', 'listbox', 'columnheader', 'rowheader', 'menuitemcheckbox',
    'menuitemradio', 'switch']);
  var SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);
  var SECTIONING_ROLES = new Set(['article', 'complementary', 'main', 'navigation', 'region']);
  var SKIP_TAGS = new Set(['head', 'script', 'style', 'template', 'noscript', 'title', 'meta', 'link', 'base',
    'datalist', 'param', 'source', 'track', 'wbr', 'area', 'map']);
  // Global ARIA attributes that make a generic element worth keeping.
  var GLOBAL_ARIA = new Set(['aria-atomic', 'aria-busy', 'aria-controls', 'aria-current', 'aria-describedby',
    'aria-description', 'aria-details', 'aria-dropeffect', 'aria-flowto', 'aria-grabbed', 'aria-keyshortcuts',
    'aria-label', 'aria-labelledby', 'aria-live', 'aria-owns', 'aria-relevant', 'aria-roledescription',
    'aria-invalid', 'aria-errormessage', 'aria-haspopup', 'aria-disabled', 'aria-braillelabel',
    'aria-brailleroledescription']);

  // ---- small helpers -------------------------------------------------------
  var WS = /[ \t\n\r\f]+/g;
  function collapse(s) { return s.replace(WS, ' '); }
  function flat(s) { return s.replace(WS, ' ').trim(); }
  function isInlineDisplay(d) { return d.charCodeAt(0) === 105 /* i */ && d.lastIndexOf('inline', 0) === 0; }

  function rootOf(el) { return el.getRootNode(); }
  function byId(el, id) {
    var r = rootOf(el);
    return r.getElementById ? r.getElementById(id) : null;
  }
  function idrefs(el, value) {
    var out = [];
    if (!value) return out;
    var parts = value.trim().split(/\s+/);
    for (var i = 0; i < parts.length; i++) {
      if (!parts[i]) continue;
      var t = byId(el, parts[i]);
      if (t) out.push(t);
    }
    return out;
  }

  // Changes inside a shadow root are not seen by the document's observer,
  // nor its uncomposed events (a scroll) by the window's listeners.
  function observeRoot(sr) {
    if (TRACK.roots.has(sr)) return;
    TRACK.roots.add(sr);
    TRACK.observer.observe(sr, OBSERVE);
    for (var i = 0; i < TRACK.uncomposed.length; i++) sr.addEventListener(TRACK.uncomposed[i], TRACK.onEvent, true);
  }

  // Flat-tree children of a node (open shadow roots, slots).
  function kidsOf(node) {
    if (node.nodeType === 1) {
      var sr = node.shadowRoot;
      if (sr) {
        observeRoot(sr);
        return sr.childNodes;
      }
      if (node.localName === 'slot') {
        var a = node.assignedNodes();
        if (a.length) return a;
      }
    }
    return node.childNodes;
  }

  function deepActive() {
    var a = doc.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }
  // As Chromium: an element has the focus only while the page has it;
  // the document is focused whenever the page is (with or without a
  // focused element inside).
  var focusedEl = doc.hasFocus() ? deepActive() : null;
  var modalDialog = null;
  try { modalDialog = doc.querySelector('dialog:modal'); } catch (e) { /* old engines */ }

  // Attribute record of an element (only when it has attributes).
  function attrsOf(el) {
    if (!el.hasAttributes()) return null;
    var names = el.getAttributeNames();
    var a = { aria: false, any: names.length };
    for (var i = 0; i < names.length; i++) {
      var n = names[i];
      if (n.charCodeAt(0) === 97 && n.lastIndexOf('aria-', 0) === 0) {
        a[n] = el.getAttribute(n);
        if (GLOBAL_ARIA.has(n)) a.aria = true;
      } else if (n === 'role' || n === 'id' || n === 'title' || n === 'tabindex' || n === 'contenteditable' ||
                 n === 'href' || n === 'alt' || n === 'placeholder' || n === 'type' || n === 'onclick' ||
                 n === 'hidden' || n === 'inert' || n === 'disabled' || n === 'draggable' || n === 'scope' ||
                 n === 'headers' || n === 'value' || n === 'list' || n === 'label' || n === 'summary' ||
                 n === 'multiple' || n === 'size' || n === 'readonly' || n === 'required' || n === 'abbr' ||
                 n === 'axis' || n === 'open' || n === 'for' || n === 'name' || n === 'style' ||
                 n === 'popover') {
        a[n] = el.getAttribute(n);
      }
    }
    return a;
  }
  var NOATTRS = { aria: false, any: 0 };

  function explicitRole(a) {
    var r = a.role;
    if (!r) return null;
    var parts = r.trim().toLowerCase().split(/\s+/);
    for (var i = 0; i < parts.length; i++) {
      if (ARIA_ROLES.has(parts[i])) {
        var p = parts[i];
        if (p === 'img') return 'image';
        if (p === 'presentation') return 'none';
        if (p === 'directory') return 'list';
        return p;
      }
    }
    return null;
  }

  function isDisabled(el, tag) {
    if (tag === 'button' || tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'option' ||
        tag === 'optgroup' || tag === 'fieldset') return el.matches(':disabled');
    return false;
  }
  function isFocusable(el, tag, a) {
    if (a.tabindex != null && a.tabindex !== '' && !isNaN(parseInt(a.tabindex, 10))) return !isDisabled(el, tag);
    switch (tag) {
      case 'a': return a.href != null;
      case 'button': case 'select': case 'textarea': return !isDisabled(el, tag);
      case 'input': return a.type !== 'hidden' && !isDisabled(el, tag);
      case 'option': return !isDisabled(el, tag);
      case 'summary': return true;
      case 'dialog': return true;
      case 'iframe': return false;
    }
    if (a.contenteditable != null && el.isContentEditable) return true;
    return false;
  }

  // ---- tables -------------------------------------------------------------
  var tableKinds = new Map();
  function tableKind(table) {
    // 'data' | 'layout' (Chromium's layout-table heuristics, simplified).
    var k = tableKinds.get(table);
    if (k) return k;
    k = computeTableKind(table);
    tableKinds.set(table, k);
    return k;
  }
  function computeTableKind(t) {
    if (t.isContentEditable) return 'data';
    if (t.hasAttribute('summary') || t.caption || t.tHead || t.tFoot) return 'data';
    if (t.querySelector('col, colgroup')) return 'data';
    var rows = t.rows, nrows = rows.length;
    if (nrows >= 20) return 'data';
    var ncols = 0, cells = 0, bordered = 0, th = false;
    for (var r = 0; r < nrows; r++) {
      var cs = rows[r].cells;
      if (cs.length > ncols) ncols = cs.length;
      for (var c = 0; c < cs.length; c++) {
        var cell = cs[c];
        if (cell.localName === 'th') th = true;
        if (cell.hasAttribute('headers') || cell.hasAttribute('scope') || cell.hasAttribute('abbr') ||
            cell.hasAttribute('axis')) th = true;
        if (cell.firstChild) cells++;
        var st = styleOf(cell);
        if (parseFloat(st.borderTopWidth) > 0 && parseFloat(st.borderBottomWidth) > 0 &&
            parseFloat(st.borderLeftWidth) > 0 && parseFloat(st.borderRightWidth) > 0) bordered++;
      }
    }
    if (th) return 'data';
    if (nrows <= 1 && ncols <= 1) return 'layout';
    if (cells <= 1) return 'layout';
    if (bordered * 2 >= cells && cells > 0) return 'data';
    return 'layout';
  }
  function tableOf(el) {
    var p = el.parentElement;
    while (p && p.localName !== 'table') p = p.parentElement;
    return p;
  }

  // ---- implicit roles (HTML-AAM as Chromium does it) -----------------------
  function inSectioning(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (SECTIONING.has(p.localName)) return true;
      var r = p.getAttribute('role');
      if (r && SECTIONING_ROLES.has(r)) return true;
    }
    return false;
  }
  function hasName(el, a) {
    return !!((a['aria-label'] && a['aria-label'].trim()) || a['aria-labelledby'] || (a.title && a.title.trim()));
  }
  function inputRole(el, a) {
    var t = (a.type || '').toLowerCase();
    switch (t) {
      case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
      case 'checkbox': return 'checkbox';
      case 'radio': return 'radio';
      case 'range': return 'slider';
      case 'number': return 'spinbutton';
      case 'color': return 'ColorWell';
      case 'date': return 'Date';
      case 'time': return 'InputTime';
      case 'datetime-local': case 'month': case 'week': return 'DateTime';
      case 'hidden': return null;
      case 'search': return a.list ? 'combobox' : 'searchbox';
    }
    return a.list ? 'combobox' : 'textbox';
  }
  function implicitRole(el, tag, a, ctx) {
    switch (tag) {
      // (an <a> made focusable is a link too)
      case 'a': return a.href != null || (a.tabindex != null && a.tabindex !== '') ? 'link' : 'generic';
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'header': return inSectioning(el) ? 'sectionheader' : 'banner';
      case 'footer': return inSectioning(el) ? 'sectionfooter' : 'contentinfo';
      case 'main': return 'main';
      case 'nav': return 'navigation';
      case 'search': return 'search';
      case 'section': return hasName(el, a) ? 'region' : 'generic';
      case 'form': return 'form';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'p': return 'paragraph';
      case 'blockquote': return 'blockquote';
      case 'address': return 'group';
      case 'hr': return 'separator';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return ctx.presList ? 'none' : 'listitem';
      case 'dl': return 'DescriptionList';
      case 'dt': return 'term';
      case 'dd': return 'definition';
      case 'figure': return 'figure';
      case 'figcaption': return 'Figcaption';
      case 'table': return tableKind(el) === 'data' ? 'table' : 'LayoutTable';
      case 'caption': return 'caption';
      case 'thead': case 'tfoot': return ctx.table === 'layout' ? 'none' : (ctx.table === 'pres' ? 'none' : 'rowgroup');
      case 'tbody': return 'none';
      case 'tr':
        if (ctx.table === 'pres') return 'none';
        return ctx.table === 'layout' ? 'LayoutTableRow' : 'row';
      case 'td': case 'th':
        if (ctx.table === 'pres') return 'generic';
        if (ctx.table === 'layout') return 'LayoutTableCell';
        if (ctx.table === 'grid') return tag === 'th' ? headerRole(el, a) : 'gridcell';
        return tag === 'th' ? headerRole(el, a) : 'cell';
      case 'img':
        if (a.alt === '' && !a.aria && !(a.title && a.title.trim())) return 'none';
        return 'image';
      case 'svg': return 'image';
      case 'canvas': return 'Canvas';
      case 'iframe': case 'frame': return 'Iframe';
      case 'button': return 'button';
      case 'input': return inputRole(el, a);
      case 'select': return (a.multiple != null || (parseInt(a.size, 10) > 1)) ? 'listbox' : 'combobox';
      case 'option': return 'option';
      case 'optgroup': return 'group';
      case 'textarea': return 'textbox';
      case 'label': return 'LabelText';
      case 'legend': return 'Legend';
      case 'fieldset': return 'group';
      case 'details': return 'group';
      case 'summary': {
        var d = el.parentElement;
        return d && d.localName === 'details' ? 'DisclosureTriangle' : 'generic';
      }
      case 'dialog': return 'dialog';
      case 'output': return 'status';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'em': return 'emphasis';
      case 'strong': return 'strong';
      case 'code': return 'code';
      case 'mark': return 'mark';
      case 'sub': return 'subscript';
      case 'sup': return 'superscript';
      case 'del': case 's': return 'deletion';
      case 'ins': return 'insertion';
      case 'time': return 'time';
      case 'abbr': return 'Abbr';
      case 'dfn': return 'term';
      case 'math': return 'MathMLMath';
      case 'br': return 'LineBreak';
      case 'video': return 'Video';
      case 'audio': return 'Audio';
      case 'html': return 'none';
      case 'slot': return 'none';
      case 'pre': return 'generic';
      case 'center': return 'generic';
    }
    return 'generic';
  }
  function headerRole(el, a) {
    var scope = (a.scope || '').toLowerCase();
    if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
    if (scope === 'col' || scope === 'colgroup') return 'columnheader';
    var row = el.parentElement;
    if (row && row.parentElement && row.parentElement.localName === 'thead') return 'columnheader';
    if (row && row.cells) {
      var cells = row.cells;
      for (var i = 0; i < cells.length; i++) if (cells[i].localName === 'td') return 'rowheader';
    }
    return 'columnheader';
  }

  // ---- text ----------------------------------------------------------------
  // Rendered text of a text node, whitespace handled per its parent's
  // white-space and text-transform (approximates Chromium's StaticText).
  // Text styles of an element (what its text nodes need), cached.
  var textStyles = new Map();
  var TS_DEFAULT = { mode: 0, tt: 0 };
  // white-space collapsing (mode 0 collapse, 1 pre-line, 2 preserve) and
  // text-transform (tt) of an element (both inherited).
  function textStyle(el, pts) {
    var r = R(el);
    var ts = r.ts;
    if (ts) return ts;
    var m = readMask(el, r);
    if (!pts) {
      var p = (m & (K_WS | K_TT)) === (K_WS | K_TT) ? null : flatParent(el);
      pts = p ? textStyle(p) : TS_DEFAULT;
    }
    var mode = pts.mode, tti = pts.tt;
    if (m & K_WS) {
      var wst = ST(r, el);
      var ws = wst.whiteSpaceCollapse || wst.whiteSpace;
      mode = (ws === 'preserve' || ws === 'pre' || ws === 'pre-wrap' || ws === 'break-spaces') ? 2 :
        (ws === 'preserve-breaks' || ws === 'pre-line') ? 1 : 0;
    }
    if (m & K_TT) {
      var tt = ST(r, el).textTransform;
      tti = tt === 'uppercase' ? 1 : tt === 'lowercase' ? 2 : tt === 'capitalize' ? 3 : 0;
    }
    ts = (mode === pts.mode && tti === pts.tt) ? pts : { mode: mode, tt: tti };
    r.ts = ts;
    return ts;
  }
  var textMemo = new Map();
  function textData(t, ts) {
    var s = textMemo.get(t);
    if (s !== undefined) return s;
    s = t.data;
    if (ts.mode === 0) s = collapse(s);
    else if (ts.mode === 1) s = s.replace(/[ \t]+/g, ' ').replace(/ ?\n ?/g, '\n');
    if (ts.tt) {
      if (ts.tt === 1) s = s.toUpperCase();
      else if (ts.tt === 2) s = s.toLowerCase();
      else s = s.replace(/(^|\s)(\S)/g, function (m, p, c) { return p + c.toUpperCase(); });
    }
    textMemo.set(t, s);
    return s;
  }
  // Is sibling n (flat tree) inline content that a space can sit next to?
  function inlineSibling(n) {
    if (!n) return 0;
    if (n.nodeType === 3) return /[^ \t\n\r\f]/.test(n.data) ? (/[ \t\n\r\f]$/.test(n.data) ? 2 : 1) : 3;
    if (n.nodeType !== 1) return 3; // comments: look further
    var tag = n.localName;
    if (SKIP_TAGS.has(tag)) return 3;
    var d = D(n);
    if (d === 'none') return 3;
    if (tag === 'br') return 0;
    if (d === 'contents') return 1;
    var pos = POS(n);
    if (pos === 'absolute' || pos === 'fixed' || FL(n) !== 'none') return 3;
    return isInlineDisplay(d) ? 1 : 0;
  }
  function sideOf(list, i, dir) {
    for (var j = i + dir; j >= 0 && j < list.length; j += dir) {
      var k = inlineSibling(list[j]);
      if (k !== 3) return k;
    }
    return -1; // edge of the parent
  }
  // Whether a text node's leading/trailing collapsible space is dropped:
  // at the edge of a block (climbing through inline parents) or after a
  // space. Returns [trimStart, trimEnd, rendered].
  function edges(list, i, parent) {
    var before = sideOf(list, i, -1), after = sideOf(list, i, 1);
    var p = parent;
    var pd = D(parent);
    // Climb through inline parents for the edges.
    var depth = 0;
    while ((before === -1 || after === -1) && p && isInlineDisplay(pd) && pd === 'inline' && depth < 8) {
      var gp = p.assignedSlot || p.parentNode;
      if (!gp) break;
      if (gp.nodeType === 11) gp = gp.host;
      var gl = kidsOf(gp);
      var idx = Array.prototype.indexOf.call(gl, p);
      if (idx < 0) break;
      if (before === -1) before = sideOf(gl, idx, -1);
      if (after === -1) after = sideOf(gl, idx, 1);
      p = gp;
      pd = D(p);
      depth++;
    }
    return [before <= 0 || before === 2, after <= 0];
  }

  // Chromium's test for a whitespace-only text node: can the space next
  // to the neighbour in direction dir be ignored?
  function ignorableNext(list, i, dir, parent, counter) {
    for (var j = i + dir; j >= 0 && j < list.length; j += dir) {
      var n = list[j];
      if (n.nodeType === 8) continue;
      if (n.nodeType === 1) {
        if (SKIP_TAGS.has(n.localName)) continue;
        if (D(n) === 'none') continue;
      }
      return ignorableNode(n, dir, counter);
    }
    // Edge of the parent: look past an inline parent.
    if (parent && parent.nodeType === 1 && D(parent) === 'inline' && counter < 4) {
      var gp = parent.assignedSlot || parent.parentNode;
      if (gp && gp.nodeType === 11) gp = gp.host;
      if (!gp) return true;
      var gl = kidsOf(gp);
      var idx = Array.prototype.indexOf.call(gl, parent);
      if (idx < 0) return true;
      return ignorableNext(gl, idx, dir, gp, counter + 1);
    }
    return true;
  }
  function ignorableNode(n, dir, counter) {
    if (counter > 3) return false;
    if (n.nodeType === 3) {
      var data = n.data;
      if (!data) return false;
      if (!/[^ \t\n\r\f]/.test(data)) return true;
      return dir > 0 ? /^[ \t\n\r\f]/.test(data) : /[ \t\n\r\f]$/.test(data);
    }
    if (n.nodeType !== 1) return true;
    var tag = n.localName;
    if (tag === 'br') return true;
    if (tag === 'img') return false;
    var d = D(n);
    if (d !== 'inline' && d !== 'contents') return true;
    if (tag === 'svg' || tag === 'iframe' || tag === 'canvas' || tag === 'input' || tag === 'button' ||
        tag === 'select' || tag === 'textarea' || tag === 'video' || tag === 'audio' || tag === 'object' ||
        tag === 'embed' || tag === 'math') return true;
    var kids = kidsOf(n);
    var len = kids.length;
    if (!len) {
      // An empty inline: look at its neighbour in the same direction.
      var p = n.assignedSlot || n.parentNode;
      if (p && p.nodeType === 11) p = p.host;
      if (!p) return true;
      var pl = kidsOf(p);
      return ignorableNext(pl, Array.prototype.indexOf.call(pl, n), dir, p, counter + 1);
    }
    return ignorableNext(kids, dir > 0 ? -1 : len, dir, null, counter + 1);
  }

  // ---- style sheets -----------------------------------------------------------
  // One pass over the document's style sheets (cached per sheet across
  // walks) finds, for each property the walker reads sparingly, the
  // selectors of the rules that set it, and the elements whose ::before or
  // ::after may have content. A sheet that cannot be read (cross-origin) or
  // a rule the scan cannot place (CSS nesting, @scope) makes the walker
  // read everything for every element (STYLE_ALL) and check every element
  // for pseudo content.
  // ---- incremental re-read -------------------------------------------------------
  // What changed since the last walk, as the page reports it: mutation
  // records (document and every open shadow root walked), and events that
  // move boxes or change what the page shows. Installed once per document.
  var OBSERVE = { subtree: true, childList: true, characterData: true, attributes: true };
  // Attributes whose change a patch re-reads in place (states and values
  // of the element itself); any other mutation makes the next walk whole.
  var PATCH_ATTRS = new Set(['aria-checked', 'aria-selected', 'aria-pressed', 'aria-expanded', 'aria-busy',
    'aria-valuenow', 'aria-valuetext', 'value', 'checked', 'selected']);
  // Attributes that reach elements elsewhere on the page (references by
  // id): their change makes the next walk whole. Any other change (nodes
  // added or removed, text, other attributes) is re-walked where it
  // happened: the node is noted (an attribute's element by its parent, so
  // its siblings are walked again too) and trySplice finds the subtree.
  var WHOLE_ATTRS = new Set(['id', 'for', 'form', 'list', 'aria-owns', 'headers', 'usemap']);
  var TRACK = G.track;
  if (!TRACK) {
    TRACK = G.track = { whole: true, why: 'the first walk', focus: false, pointer: false, input: false, attrs: [], dirty: [], moved: false, roots: new WeakSet() };
    TRACK.note = function (r) {
      var t = r.target;
      if (r.type === 'attributes') {
        if (PATCH_ATTRS.has(r.attributeName)) TRACK.attrs.push(t);
        else if (WHOLE_ATTRS.has(r.attributeName)) { TRACK.whole = true; TRACK.why = 'attribute ' + r.attributeName; }
        else if (t.parentNode) TRACK.dirty.push([t.parentNode, t.previousSibling, t.nextSibling, t]);
        else TRACK.dirty.push(t);
      } else if (r.type === 'characterData') TRACK.dirty.push(t.parentNode || t);
      else TRACK.dirty.push([t, r.previousSibling, r.nextSibling]);
      if (TRACK.dirty.length > 256) { TRACK.whole = true; TRACK.why = 'over 256 changes'; }
    };
    TRACK.observer = new MutationObserver(function (records) {
      for (var i = 0; i < records.length; i++) TRACK.note(records[i]);
    });
    TRACK.observer.observe(doc, OBSERVE);
    // A scroll (of the page or of an element) moves boxes and nothing
    // else: the next read splices, reading every box again. The other
    // events make it whole.
    var onEvent = TRACK.onEvent = function (e) {
      if (e.type === 'scroll') TRACK.moved = true;
      else { TRACK.whole = true; TRACK.why = 'event ' + e.type; }
    };
    // Of these, the events that do not cross a shadow root's boundary
    // (not composed) are listened for on each shadow root too (observeRoot).
    TRACK.uncomposed = ['scroll', 'load', 'error', 'toggle', 'animationstart', 'animationend', 'animationcancel',
      'transitionrun', 'transitionend'];
    TRACK.uncomposed.concat(['resize', 'fullscreenchange', 'hashchange', 'popstate', 'pageshow'])
      .forEach(function (t) { win.addEventListener(t, onEvent, true); });
    if (doc.fonts && doc.fonts.addEventListener) doc.fonts.addEventListener('loadingdone', onEvent);
    var focus = function () { TRACK.focus = true; };
    win.addEventListener('focusin', focus, true);
    win.addEventListener('focusout', focus, true);
    win.addEventListener('mouseover', function () { TRACK.pointer = true; }, true);
    var input = function () { TRACK.input = true; };
    ['input', 'change', 'click', 'keydown'].forEach(function (t) { win.addEventListener(t, input, true); });
  }

  function sheetsKey() {
    var k = [];
    try {
      var ss = doc.styleSheets;
      for (var i = 0; i < ss.length; i++) {
        var n = -1;
        try { n = ss[i].cssRules.length; } catch (e) { /* cross-origin */ }
        k.push(ss[i].disabled ? -2 : n);
      }
      var ad = doc.adoptedStyleSheets;
      if (ad) for (var j = 0; j < ad.length; j++) k.push(ad[j].cssRules.length);
    } catch (e) { return 'x'; }
    return k.join(',');
  }

  // The state bits a patch recomputes (everything else of a row stays).
  var STATE_BITS = F_CHECKED | F_MIXED | F_CHECKABLE | F_SELECTED | F_SELECTABLE | F_EXPANDED | F_COLLAPSED |
    F_PRESSED | F_PRESSED_MIXED | F_TOGGLE | F_BUSY | F_FOCUSED;

  // The states of emitted element el (row i of the last walk), by the
  // walk's own rules.
  function restate(el, role, f) {
    var tag = el.localName, a = attrsOf(el) || NOATTRS;
    var flags = f & ~STATE_BITS;
    if (tag === 'input') {
      var ty = (a.type || '').toLowerCase();
      if (ty === 'checkbox' || ty === 'radio') {
        flags |= F_CHECKABLE;
        if (el.indeterminate && ty === 'checkbox') flags |= F_MIXED;
        else if (el.checked) flags |= F_CHECKED;
      }
    } else if (tag === 'select') {
      if (role === 'combobox') flags |= F_COLLAPSED;
    } else if (tag === 'option') {
      flags |= F_SELECTABLE;
      if (el.selected) flags |= F_SELECTED;
    } else if (tag === 'summary' && role === 'DisclosureTriangle') {
      flags |= el.parentElement.open ? F_EXPANDED : F_COLLAPSED;
    }
    if (a.any) flags = ariaStates(a, role, tag, flags);
    // A scroll container is keyboard-focusable when nothing inside is (see
    // walkElementIn): what was put in or taken out below it changes that.
    if (flags & F_SCROLLABLE) {
      flags &= ~F_FOCUSABLE;
      if (isFocusable(el, tag, a) || !el.querySelector(FOCUSABLE_SEL)) flags |= F_FOCUSABLE;
    }
    return [flags, computeValue(el, tag, a, role)];
  }

  // The ARIA states of an element with attributes `a` on top of its native
  // `flags` (a native checkbox or radio keeps its own checked state).
  function ariaStates(a, role, tag, flags) {
    var ac = a['aria-checked'];
    if (ac != null && CHECKABLE_ROLES.has(role) && !(flags & F_CHECKABLE)) {
      flags |= F_CHECKABLE;
      if (ac === 'true') flags |= F_CHECKED; else if (ac === 'mixed') flags |= F_MIXED;
    } else if (ac != null && role === 'option') {
      if (ac === 'true') flags |= F_CHECKED;
    }
    var as = a['aria-selected'];
    if (as != null && SELECTABLE_ROLES.has(role) && tag !== 'option') {
      flags |= F_SELECTABLE;
      if (as === 'true') flags |= F_SELECTED;
    }
    var ae = a['aria-expanded'];
    if (ae != null && EXPANDABLE_ROLES.has(role)) {
      if (ae === 'true') { flags |= F_EXPANDED; flags &= ~F_COLLAPSED; }
      else if (ae === 'false') flags |= F_COLLAPSED;
    }
    var ap = a['aria-pressed'];
    if (ap != null && role === 'button') {
      flags |= F_TOGGLE;
      if (ap === 'true') flags |= F_PRESSED; else if (ap === 'mixed') flags |= F_PRESSED_MIXED;
    }
    if (a['aria-busy'] === 'true') flags |= F_BUSY;
    return flags;
  }

  // A patch of the last walk (only states changed); 'splice' when nodes,
  // text or attributes changed or boxes moved (a scroll); or null when
  // the walk must be whole: the reader holds another generation, the
  // viewport, zoom, title or URL changed, the page has state-dependent
  // style rules and a state changed, a style sheet changed, or the last
  // whole walk is older than maxAge.
  // Why this walk is whole (answered with it, for tests and tracing).
  var WHY = '';
  function whole(why) { WHY = why; return null; }
  function tryPatch() {
    var L = G.last;
    if (!L) return whole('no walk held');
    if (options.patch !== G.gen) return whole('the walk held is of another generation');
    if (Date.now() - L.at > (options.maxAge || 5000)) return whole('the last whole walk is older than maxAge');
    var pending = TRACK.observer.takeRecords();
    for (var i = 0; i < pending.length; i++) TRACK.note(pending[i]);
    if (TRACK.whole || win.innerWidth !== L.vw || win.innerHeight !== L.vh ||
        (win.devicePixelRatio || 1) !== L.dpr || doc.title !== L.title ||
        doc.URL !== L.url) return whole(TRACK.whole ? TRACK.why : 'the viewport, zoom, title or URL changed');
    // (The page scrolled with no event yet: boxes moved.)
    if (win.scrollX !== L.sx || win.scrollY !== L.sy) TRACK.moved = true;
    if (G.stateSel && (TRACK.focus || TRACK.pointer || TRACK.input || TRACK.attrs.length)) {
      return whole('a state changed and style rules match on states');
    }
    if (sheetsKey() !== L.sheets) return whole('a style sheet changed');
    if (TRACK.dirty.length) return G.structSel ? whole('style rules match on content (:has, :empty)') : 'splice';
    if (TRACK.moved) return 'splice';
    var rows = new Set(L.controls);
    for (var t = 0; t < TRACK.attrs.length; t++) {
      var at = L.handles.indexOf(TRACK.attrs[t]);
      // Not an exposed element: it may change what is exposed.
      if (at < 0) return G.structSel ? whole('style rules match on content (:has, :empty)') : 'splice';
      rows.add(at);
    }
    var fe = doc.hasFocus() ? deepActive() : null;
    var focusAt = fe ? L.handles.indexOf(fe) : -1;
    if (L.focusAt >= 0) rows.add(L.focusAt);
    if (focusAt >= 0) rows.add(focusAt);
    var out = [];
    rows.forEach(function (r) {
      var el = L.handles[r];
      if (!el || !el.isConnected) { out = null; return; }
      if (out === null) return;
      var role = L.roles[r];
      var st = restate(el, role, L.flags[r]);
      var f = st[0];
      if (r === focusAt) f |= F_FOCUSED;
      if (f !== L.flags[r] || st[1] !== L.values[r]) {
        L.flags[r] = f;
        L.values[r] = st[1];
        out.push(r, f, st[1]);
      }
    });
    if (out === null) return whole('a row\'s node is gone');
    var rf = L.flags[0] & ~F_FOCUSED;
    if (doc.hasFocus()) rf |= F_FOCUSED;
    if (rf !== L.flags[0]) { L.flags[0] = rf; out.push(0, rf, L.values[0]); }
    L.focusAt = focusAt;
    L.focusHandle = focusAt >= 0 ? L.handles[focusAt] : null;
    TRACK.focus = TRACK.pointer = TRACK.input = false;
    TRACK.attrs = [];
    var base = G.gen;
    G.gen++;
    return { v: 1, patch: base, gen: G.gen, count: L.count, rows: out,
      viewport: [win.innerWidth, win.innerHeight, win.devicePixelRatio || 1, win.scrollX, win.scrollY],
      ms: { total: performance.now() - T0 } };
  }
  var SPLICE = false;
  if (options.patch) {
    var patched = tryPatch();
    if (patched === 'splice') SPLICE = true;
    else if (patched) return options.stringify ? JSON.stringify(patched) : patched;
  }
  // A whole walk: what changed before it is in it.
  function resetTrack() {
    TRACK.observer.takeRecords();
    TRACK.whole = TRACK.focus = TRACK.pointer = TRACK.input = TRACK.moved = false;
    TRACK.attrs = [];
    TRACK.dirty = [];
  }
  if (!SPLICE) resetTrack();

  var PROP_KEYS = [
    [/(^|[;\s])visibility\s*:/, K_V], [/(^|[;\s])white-space(-collapse)?\s*:/, K_WS],
    [/(^|[;\s])text-transform\s*:/, K_TT], [/(^|[;\s])position\s*:/, K_POS], [/(^|[;\s])float\s*:/, K_FL],
    [/(^|[;\s])overflow(-x|-y|-block|-inline)?\s*:/, K_OV], [/(^|[;\s])content-visibility\s*:/, K_CV],
    [/(^|[;\s])display\s*:/, K_D],
    [/(^|[;\s])all\s*:/, K_ALL]];
  var STYLE_ALL = options.styles === 'all';
  // Selectors that match on a state a click, a key or the pointer changes:
  // with one of them in a sheet, no state change is patched in place.
  var STATE_SEL = /:(hover|focus|active|checked|indeterminate|has|target|valid|invalid|user-valid|user-invalid|placeholder-shown|open|closed|popover-open|default|enabled|disabled|read-only|read-write|autofill|modal|playing|paused|empty)\b/;
  // Selectors that match on what an element contains: with one of them in
  // a sheet, a change inside an element may restyle its ancestors, so no
  // subtree is walked alone.
  var STRUCT_SEL = /:(has|empty)\b/;
  // Selectors on an element's place among its siblings: with one of them,
  // a change among an element's children is walked with all of them.
  var SIB_SEL = /[+~]|:nth-|:(first|last|only)-(child|of-type)/;
  // Selectors (one per property a rule sets) and ::before/::after
  // selectors past which reading every element beats matching them.
  var STYLE_SCAN_MAX = 64, PSEUDO_SCAN_MAX = 360;
  var styleSels = null;      // [ [selector, mask], ... ]
  var pseudoCandidates = null; // null: check every element
  var styleCands = null;     // Map element -> mask (document scope)
  if (!G.sheets) G.sheets = new WeakMap();
  function scanRules(rules, out, inScope) {
    for (var i = 0; i < rules.length; i++) {
      var r = rules[i];
      var sel = r.selectorText;
      if (sel !== undefined && STATE_SEL.test(sel)) out.state = true;
      if (sel !== undefined && STRUCT_SEL.test(sel)) out.struct = true;
      if (sel !== undefined && SIB_SEL.test(sel)) out.sib = true;
      if (sel !== undefined && r.style) {
        var css = r.style.cssText;
        if (inScope || (r.parentRule && r.parentRule.selectorText !== undefined)) {
          // Nested or scoped rule: its selector is relative; be safe.
          for (var k0 = 0; k0 < PROP_KEYS.length; k0++) if (PROP_KEYS[k0][0].test(css)) out.all = true;
          if (sel.indexOf(':before') >= 0 || sel.indexOf(':after') >= 0) out.allPseudo = true;
        } else {
          var parts = null;
          if (sel.indexOf(':before') >= 0 || sel.indexOf(':after') >= 0) {
            if (css.indexOf('content') >= 0) {
              parts = sel.split(',');
              for (var p = 0; p < parts.length; p++) {
                var ps = parts[p];
                if (ps.indexOf(':before') < 0 && ps.indexOf(':after') < 0) continue;
                out.pseudo.push(ps.replace(/::?(before|after)\b/g, '').trim() || '*');
              }
            }
          }
          var mask = 0;
          for (var k = 0; k < PROP_KEYS.length; k++) if (PROP_KEYS[k][0].test(css)) mask |= PROP_KEYS[k][1];
          if (mask) {
            if (!parts) parts = sel.split(',');
            for (var q = 0; q < parts.length; q++) {
              var one = parts[q].trim();
              // A rule for a pseudo element does not style the element.
              if (/::|:(before|after|first-line|first-letter)\b/.test(one)) continue;
              out.props.push([one, mask]);
            }
          }
        }
        if (r.cssRules && r.cssRules.length) scanRules(r.cssRules, out, inScope);
      } else if (r.styleSheet) {
        try { scanRules(r.styleSheet.cssRules, out, inScope); } catch (e) { out.all = true; out.allPseudo = true; }
      } else if (r.cssRules) {
        // @media, @supports, @layer, @container: taken whatever they say
        // (more candidates, never fewer); @scope: relative selectors.
        var scoped = inScope || (typeof CSSScopeRule !== 'undefined' && r instanceof CSSScopeRule);
        scanRules(r.cssRules, out, scoped);
      }
    }
  }
  (function scanSheets() {
    var props = [], pseudo = [], all = STYLE_ALL, allPseudo = options.pseudo === 'all', stateSel = false,
      structSel = false, sibSel = false;
    var list = [];
    try {
      var ss = doc.styleSheets;
      for (var i = 0; i < ss.length; i++) list.push(ss[i]);
      var ad = doc.adoptedStyleSheets;
      if (ad) for (var j = 0; j < ad.length; j++) list.push(ad[j]);
    } catch (e) { all = true; allPseudo = true; stateSel = true; structSel = true; sibSel = true; }
    for (var s = 0; s < list.length; s++) {
      var sheet = list[s];
      if (sheet.disabled) continue;
      var res = null, rules;
      try { rules = sheet.cssRules; } catch (e) { all = true; allPseudo = true; stateSel = true; structSel = true; sibSel = true; continue; }
      var cached = G.sheets.get(sheet);
      if (cached && cached.n === rules.length) res = cached.res;
      else {
        res = { props: [], pseudo: [], all: false, allPseudo: false, state: false, struct: false, sib: false };
        scanRules(rules, res, false);
        G.sheets.set(sheet, { n: rules.length, res: res });
      }
      if (res.all) all = true;
      if (res.allPseudo) allPseudo = true;
      if (res.state) stateSel = true;
      if (res.struct) structSel = true;
      if (res.sib) sibSel = true;
      for (var a = 0; a < res.props.length; a++) props.push(res.props[a]);
      for (var b = 0; b < res.pseudo.length; b++) pseudo.push(res.pseudo[b]);
    }
    // Matching a long list of selectors against every element costs more
    // than reading each element's style: Chromium tries each selector on
    // each element (about 10 ns a pair here), while a computed style read
    // costs about 1 us an element, a ::before/::after read about 4 us.
    // JupyterLab's sheets give 762 property selectors and 1,778 pseudo
    // ones: matching them took 36 ms of a 51 ms walk, reading directly
    // 15 ms for the same rows. Sphinx's and rustdoc's pages (86 and 174
    // selectors, 17,000 elements) walk 5-10 % faster reading styles
    // directly, and 30 % slower reading every pseudo element (16 and 18
    // pseudo selectors). Past these counts the walker reads directly.
    var bits = 0;
    for (var c = 0; c < props.length; c++) for (var m = props[c][1]; m; m &= m - 1) bits++;
    if (bits > STYLE_SCAN_MAX) all = true;
    if (pseudo.length > PSEUDO_SCAN_MAX) allPseudo = true;
    STYLE_ALL = all;
    G.stateSel = stateSel;
    G.structSel = structSel;
    G.sibSel = sibSel;
    styleSels = props;
    if (!allPseudo) pseudoCandidates = { doc: pseudo };
  })();
  // The candidates for el: of the subtree a splice walks again, or of the
  // whole document (el outside it, e.g. an element a label refers to).
  var fullCands = null;
  function candsFor(el) {
    if (SCOPE && !inScopeEl(el)) {
      if (fullCands === null) { var sc = SCOPE; SCOPE = null; fullCands = buildStyleCands(); SCOPE = sc; }
      return fullCands;
    }
    if (styleCands === null) styleCands = buildStyleCands();
    return styleCands;
  }
  // Elements of the document that some rule may give one of the sparingly
  // read properties (one querySelectorAll per property).
  function buildStyleCands() {
    var map = new Map();
    var byMask = new Map();
    for (var i = 0; i < styleSels.length; i++) {
      var sm = styleSels[i];
      for (var bit = 1; bit <= K_D; bit <<= 1) {
        if (!(sm[1] & bit)) continue;
        var l = byMask.get(bit);
        if (!l) { l = []; byMask.set(bit, l); }
        l.push(sm[0]);
      }
    }
    byMask.forEach(function (sels, bit) {
      var found = null;
      try { found = inScope(sels.join(',')); } catch (e) { found = null; }
      if (found === null) {
        // One bad selector: one at a time.
        var acc = [];
        for (var k = 0; k < sels.length; k++) {
          try { var f = inScope(sels[k]); for (var x = 0; x < f.length; x++) acc.push(f[x]); } catch (e) { /* skip */ }
        }
        found = acc;
      }
      for (var n = 0; n < found.length; n++) {
        var el = found[n];
        map.set(el, (map.get(el) || 0) | bit);
      }
    });
    return map;
  }
  // The elements of the document matching sel; while a splice walks one
  // subtree again (SCOPE), only that subtree's.
  var SCOPE = null;          // null, or the elements walked again
  function inScope(sel) {
    if (!SCOPE) return doc.querySelectorAll(sel);
    var found = [];
    for (var i = 0; i < SCOPE.length; i++) {
      var f = SCOPE[i].querySelectorAll(sel);
      for (var j = 0; j < f.length; j++) found.push(f[j]);
      if (SCOPE[i].matches(sel)) found.push(SCOPE[i]);
    }
    return found;
  }
  function inScopeEl(el) {
    for (var i = 0; i < SCOPE.length; i++) if (SCOPE[i].contains(el)) return true;
    return false;
  }
  var pseudoSets = new Map(); // root -> Set of candidate elements
  var FULL = {};
  function candidatesIn(root, full) {
    var key = full ? FULL : root;
    var set = pseudoSets.get(key);
    if (set) return set;
    set = new Set();
    var sels = pseudoCandidates.doc;
    if (root !== doc) {
      // Shadow roots: their own sheets (cheap scan, few rules).
      sels = [];
      var list = [];
      var ss = root.styleSheets;
      for (var i = 0; i < ss.length; i++) list.push(ss[i]);
      if (root.adoptedStyleSheets) for (var j = 0; j < root.adoptedStyleSheets.length; j++) list.push(root.adoptedStyleSheets[j]);
      for (var s = 0; s < list.length; s++) {
        var rules;
        try { rules = list[s].cssRules; } catch (e) { rules = []; }
        for (var r = 0; r < rules.length; r++) {
          var st = rules[r].selectorText;
          if (st && (st.indexOf(':before') >= 0 || st.indexOf(':after') >= 0)) {
            var parts = st.split(',');
            for (var k = 0; k < parts.length; k++) {
              if (parts[k].indexOf(':before') < 0 && parts[k].indexOf(':after') < 0) continue;
              sels.push(parts[k].replace(/::?(before|after)\b/g, '').replace(/:host(\((.*)\))?/g, '').trim() || '*');
            }
          }
        }
      }
    }
    var query = function (sel) { return root === doc && !full ? inScope(sel) : root.querySelectorAll(sel); };
    // One pass over the document for all the selectors (JupyterLab has
    // hundreds: one querySelectorAll each was most of a 50 ms walk); one
    // at a time only when a selector is not valid here.
    var all = null;
    if (sels.length) {
      try { all = query(sels.join(',')); } catch (e) { all = null; }
    }
    if (all !== null) {
      for (var a = 0; a < all.length; a++) set.add(all[a]);
    } else {
      for (var q = 0; q < sels.length; q++) {
        var found;
        try { found = query(sels[q]); } catch (e) { found = []; }
        for (var f = 0; f < found.length; f++) set.add(found[f]);
      }
    }
    pseudoSets.set(key, set);
    return set;
  }
  function mayHavePseudo(el, root) {
    if (pseudoCandidates === null) return true;
    if (el.localName === 'q') return true; // user-agent open-quote/close-quote
    if (!root) root = el.getRootNode();
    return candidatesIn(root, !!SCOPE && root === doc && !inScopeEl(el)).has(el);
  }
  // The text of ::before or ::after ('' when none), and its display.
  function pseudoContent(el, which) {
    var st = win.getComputedStyle(el, which);
    var c = st.content;
    if (!c || c === 'none' || c === 'normal') return null;
    if (st.display === 'none') return null;
    // Alternative text: content: "x" / "alt".
    var out = '', alt = null, i = 0, n = c.length, img = false;
    var slash = -1;
    // Tokenise strings, counters (already resolved by getComputedStyle
    // only for strings; counter()/attr() appear literally).
    var parts = [];
    while (i < n) {
      var ch = c[i];
      if (ch === '"' || ch === "'") {
        var j = i + 1, s = '';
        while (j < n && c[j] !== ch) {
          if (c[j] === '\\' && j + 1 < n) {
            // CSS escapes: \XXXXXX hex or a literal.
            var m = /^[0-9a-fA-F]{1,6} ?/.exec(c.slice(j + 1, j + 8));
            if (m) {
              var cp = parseInt(m[0], 16);
              // CSS: a zero, surrogate or out-of-range escape is U+FFFD.
              if (cp === 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;
              s += String.fromCodePoint(cp); j += 1 + m[0].length; continue;
            }
            s += c[j + 1]; j += 2; continue;
          }
          s += c[j]; j++;
        }
        parts.push({ t: 's', v: s });
        i = j + 1;
      } else if (ch === '/') {
        parts.push({ t: '/' }); i++;
      } else if (c.lastIndexOf('url(', i) === i) {
        var e = c.indexOf(')', i); parts.push({ t: 'img' }); i = e < 0 ? n : e + 1;
      } else if (c.lastIndexOf('attr(', i) === i) {
        var e2 = c.indexOf(')', i);
        var name = c.slice(i + 5, e2).trim().split(/\s+/)[0];
        parts.push({ t: 's', v: el.getAttribute(name) || '' }); i = e2 < 0 ? n : e2 + 1;
      } else if (c.lastIndexOf('counter(', i) === i || c.lastIndexOf('counters(', i) === i) {
        var e3 = c.indexOf(')', i); parts.push({ t: 'counter' }); i = e3 < 0 ? n : e3 + 1;
      } else if (c.lastIndexOf('open-quote', i) === i) { parts.push({ t: 's', v: '\u201c' }); i += 10; }
      else if (c.lastIndexOf('close-quote', i) === i) { parts.push({ t: 's', v: '\u201d' }); i += 11; }
      else i++;
    }
    var main = [], altParts = null;
    for (var p = 0; p < parts.length; p++) {
      if (parts[p].t === '/') { altParts = []; continue; }
      (altParts || main).push(parts[p]);
    }
    if (altParts) {
      alt = '';
      for (var q = 0; q < altParts.length; q++) if (altParts[q].t === 's') alt += altParts[q].v;
    }
    for (var r = 0; r < main.length; r++) {
      if (main[r].t === 's') out += main[r].v;
      else if (main[r].t === 'img') img = true;
      // counter(): its value is not readable from script (left out).
    }
    var pd = st.display;
    return { text: out, alt: alt, img: img, block: !isInlineDisplay(pd), atomic: pd === 'inline-block' || pd === 'inline-flex' || pd === 'inline-grid', parts: main };
  }

  // ---- accessible names (accname 1.2, Chromium's choices) ------------------
  var contentMemo = new Map();

  // Hidden for the name computation (not rendered or aria-hidden).
  function hiddenForName(el) {
    if (D(el) === 'none') return true;
    if (el.getAttribute('aria-hidden') === 'true') return true;
    return false;
  }
  function isHiddenDeep(el) {
    // Referenced elements may sit anywhere: check layout and ancestors.
    for (var p = el; p; p = p.parentElement || (p.getRootNode && p.getRootNode().host) || null) {
      if (p.nodeType !== 1) break;
      if (p.getAttribute('aria-hidden') === 'true') return true;
      if (p.hasAttribute('hidden') || p.localName === 'template') return true;
    }
    var d = D(el);
    if (d === 'none' || !V(el)) return true;
    if (el.getClientRects().length === 0 && d !== 'contents') {
      // no box: an ancestor has display:none
      return true;
    }
    return false;
  }

  // Value of an embedded control when it is part of another's name.
  function embeddedValue(el, role) {
    var tag = el.localName;
    if (role === 'textbox' || role === 'searchbox') {
      if (tag === 'input' || tag === 'textarea') return el.value;
      return el.textContent;
    }
    if (role === 'combobox') {
      if (tag === 'select') {
        var o = el.selectedOptions;
        return o && o.length ? optionText(o[0]) : '';
      }
      if (tag === 'input') return el.value;
      var ad = el.getAttribute('aria-activedescendant');
      return null; // fall back to content
    }
    if (role === 'listbox') {
      if (tag === 'select') {
        var so = el.selectedOptions, out = [];
        for (var i = 0; i < so.length; i++) out.push(optionText(so[i]));
        return out.join(' ');
      }
      var sel = el.querySelectorAll('[aria-selected="true"]');
      var o2 = [];
      for (var j = 0; j < sel.length; j++) o2.push(nameFromContent(sel[j], null, false, 1));
      return o2.join(' ');
    }
    if (RANGE_ROLES.has(role)) {
      var vt = el.getAttribute('aria-valuetext');
      if (vt) return vt;
      var vn = el.getAttribute('aria-valuenow');
      if (vn != null) return vn;
      if (tag === 'input' || tag === 'progress' || tag === 'meter') return String(el.value);
      return '';
    }
    return null;
  }
  function optionText(o) {
    var l = o.getAttribute('label');
    if (l) return l;
    return flat(o.text);
  }

  // Text of one node for a name computed from content (recursion step).
  // self: the element being named (skipped when met); hid: include hidden.
  function contribution(node, self, hid, depth) {
    if (node.nodeType === 3) {
      var p = node.parentNode;
      if (p && p.nodeType === 11) p = p.host;
      if (!p) return node.data;
      if (!hid && !V(p)) return '';
      return textData(node, textStyle(p));
    }
    if (node.nodeType !== 1) return '';
    var el = node, tag = el.localName;
    if (el === self) return '';
    if (tag === 'wbr') return ' '; // Chromium: a word break separates words in names
    if (SKIP_TAGS.has(tag) && tag !== 'area') return '';
    if (tag === 'br') return '\n';
    var dsp = D(el);
    if (!hid) {
      if (dsp === 'none') return '';
      if (el.getAttribute('aria-hidden') === 'true') return '';
    }
    var a = attrsOf(el) || NOATTRS;
    var role = explicitRole(a);
    if (!role || role === 'none' || role === 'generic') role = implicitRole(el, tag, a, EMPTY_CTX);
    // Parts in separate layout boxes are separated by a space (blocks,
    // inline-blocks, replaced elements); plain inline parts are not.
    var block = (dsp !== 'inline' && dsp !== 'contents') || REPLACED.has(tag);
    var res = null;
    // 2B: aria-labelledby (not inside another labelledby traversal).
    if (a['aria-labelledby'] && depth < 2 && !(hid && depth)) {
      var refs = idrefs(el, a['aria-labelledby']);
      if (refs.length) {
        var parts = [];
        for (var i = 0; i < refs.length; i++) parts.push(labelledbyText(refs[i], refs[i] === el ? null : self));
        res = parts.join(' ');
      }
    }
    // 2C (with the embedded-control rule of 2E first for controls).
    if (res === null && self !== el) {
      var ev = embeddedValue(el, role);
      if (ev !== null && ev !== undefined) res = ev;
    }
    if (res === null && a['aria-label'] && a['aria-label'].trim()) res = a['aria-label'];
    if (res === null) {
      var nat = nativeName(el, tag, a, role, self, hid);
      if (nat) res = nat;
    }
    if (res === null) {
      // Chromium (156) gives a descendant's title no part in its
      // ancestor's name from content: a tab over a close icon titled
      // "Close sales.ipynb" is named "sales.ipynb" (JupyterLab).
      res = nameFromContent(el, self, hid, depth + 1);
    }
    if (block && res) return ' ' + res + ' ';
    return res;
  }
  var EMPTY_CTX = { table: null, presList: false };

  // Native text alternatives (HTML-AAM), null when there is none.
  function nativeName(el, tag, a, role, self, hid) {
    switch (tag) {
      case 'img': return a.alt != null ? a.alt : null;
      case 'input': {
        var t = (a.type || '').toLowerCase();
        if (t === 'image') return a.alt != null ? a.alt : (a.value || a.title || 'Submit');
        if (t === 'submit') return a.value != null ? a.value : 'Submit';
        if (t === 'reset') return a.value != null ? a.value : 'Reset';
        if (t === 'button') return a.value != null ? a.value : null;
        return null;
      }
      case 'svg': {
        for (var c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === 'title') return flat(c.textContent);
        return null;
      }
      case 'fieldset': {
        for (var c2 = el.firstElementChild; c2; c2 = c2.nextElementSibling)
          if (c2.localName === 'legend') return nameFromContent(c2, self, hid, 1);
        return null;
      }
      case 'table': {
        var cap = el.caption;
        return cap ? nameFromContent(cap, self, hid, 1) : null;
      }
      case 'optgroup': return a.label || null;
      case 'iframe': return a.title || null;
    }
    return null;
  }

  // Name from content: the flat-tree children's contributions, with
  // ::before/::after; blocks add spaces.
  function nameFromContent(el, self, hid, depth, st, own) {
    if (depth > 30) return '';
    // A treeitem's own name leaves out its nested group.
    var tree = own === true && el.getAttribute('role') === 'treeitem';
    var memoOk = !hid && self === null && !tree;
    if (memoOk) {
      var m = contentMemo.get(el);
      if (m !== undefined) return m;
    }
    var out = '';
    var pb = null, pa = null;
    if (mayHavePseudo(el)) {
      pb = pseudoContent(el, '::before');
      pa = pseudoContent(el, '::after');
    }
    if (pb) out += pseudoText(pb, true);
    var kids = kidsOf(el);
    for (var i = 0; i < kids.length; i++) {
      var k = kids[i];
      if (tree && k.nodeType === 1) {
        var kr = k.getAttribute('role');
        if (kr === 'group' || kr === 'tree' || k.localName === 'ul' || k.localName === 'ol') continue;
      }
      out += contribution(k, self, hid, depth);
    }
    if (pa) out += pseudoText(pa, true);
    if (memoOk) contentMemo.set(el, out);
    return out;
  }
  function pseudoText(p, forName) {
    var t = p.alt !== null ? p.alt : p.text;
    // Alternative text stands apart from the text beside it, as Chromium
    // joins it ("Icon 200 NEW NOTEBOOK", not "Icon 200NEW NOTEBOOK").
    if ((p.block || p.atomic || p.alt !== null) && t) return ' ' + t + ' ';
    return t;
  }

  function labelledbyText(ref, self) {
    // The referenced element's own name if it has aria-label, else its
    // text (hidden content included when the element itself is hidden).
    var hid = isHiddenDeep(ref);
    var a = attrsOf(ref) || NOATTRS;
    if (a['aria-label'] && a['aria-label'].trim()) return a['aria-label'];
    var tag = ref.localName;
    var role = explicitRole(a) || implicitRole(ref, tag, a, EMPTY_CTX);
    if (ref !== self && self !== null) {
      var ev = embeddedValue(ref, role);
      if (ev !== null && ev !== undefined) return ev;
    } else if (self === null) {
      // The element names itself (aria-labelledby includes its own id):
      // its value for controls, else its content.
      var ev2 = embeddedValue(ref, role);
      if (ev2 !== null && ev2 !== undefined) return ev2;
    }
    var nat = nativeName(ref, tag, a, role, self, hid);
    if (nat) return nat;
    return flat(nameFromContent(ref, self === ref ? null : self, hid, 2));
  }

  // The name of an exposed element and where it came from.
  // Returns [name, source] with source in 'labelledby','label','native',
  // 'contents','title','placeholder' or ''.
  function computeName(el, tag, a, role) {
    if (a['aria-labelledby']) {
      var refs = idrefs(el, a['aria-labelledby']);
      if (refs.length) {
        var parts = [];
        for (var i = 0; i < refs.length; i++) parts.push(labelledbyText(refs[i], refs[i] === el ? null : el));
        var s = flat(parts.join(' '));
        if (s) return [s, 'labelledby'];
      }
    }
    var al = a['aria-label'];
    if (al && al.trim()) return [flat(al), 'aria-label'];
    // Native.
    switch (tag) {
      case 'input': case 'textarea': case 'select': case 'button': case 'meter': case 'progress': case 'output': {
        var t = (a.type || '').toLowerCase();
        if (tag === 'input' && (t === 'submit' || t === 'reset' || t === 'button' || t === 'image')) {
          var n0 = nativeName(el, tag, a, role, el, false);
          if (n0 != null && flat(n0)) return [flat(n0), 'native'];
          if (a.title && a.title.trim()) return [flat(a.title), 'title'];
          return ['', ''];
        }
        var labels = el.labels;
        if (labels && labels.length) {
          var lp = [];
          for (var j = 0; j < labels.length; j++) {
            var la = attrsOf(labels[j]) || NOATTRS;
            if (la['aria-label'] && la['aria-label'].trim()) { lp.push(la['aria-label']); continue; }
            lp.push(nameFromContent(labels[j], el, false, 1));
          }
          var ls = flat(lp.join(' '));
          if (ls) return [ls, 'label'];
        }
        break;
      }
      case 'img': case 'svg': case 'fieldset': case 'table': case 'optgroup': case 'iframe': {
        var n1 = nativeName(el, tag, a, role, null, false);
        if (n1 != null) {
          var f1 = flat(n1);
          if (f1) return [f1, tag === 'table' ? 'caption' : (tag === 'iframe' ? 'title' : 'native')];
        }
        break;
      }
      case 'option': {
        if (a.label) return [flat(a.label), 'native'];
        return [flat(el.text), 'contents'];
      }
    }
    if (NAME_FROM_CONTENT.has(role) || (role === 'row' && gridRow(el))) {
      // (el is not inside its own subtree: no need to skip it, and the
      // memo of its content can serve its ancestors too.)
      var c = flat(nameFromContent(el, null, false, 1, null, true));
      if (c) return [c, 'contents'];
    }
    if (a.title && a.title.trim() && !NAME_PROHIBITED.has(role)) return [flat(a.title), 'title'];
    if (tag === 'input' || tag === 'textarea') {
      if (a.placeholder && a.placeholder.trim()) return [flat(a.placeholder), 'placeholder'];
    }
    var ap = a['aria-placeholder'];
    if (ap && ap.trim()) return [flat(ap), 'placeholder'];
    return ['', ''];
  }
  function gridRow(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      var r = p.getAttribute('role');
      if (r === 'grid' || r === 'treegrid') return true;
      if (r === 'table' || p.localName === 'table') return false;
    }
    return false;
  }

  function computeDescription(el, tag, a, role, nameSource, name) {
    var d = a['aria-describedby'];
    if (d) {
      var refs = idrefs(el, d);
      if (refs.length) {
        var parts = [];
        for (var i = 0; i < refs.length; i++) {
          var r = refs[i];
          var ra = attrsOf(r) || NOATTRS;
          if (ra['aria-label'] && ra['aria-label'].trim()) { parts.push(ra['aria-label']); continue; }
          parts.push(nameFromContent(r, null, isHiddenDeep(r), 2));
        }
        var s = flat(parts.join(' '));
        if (s) return s;
      }
    }
    var ad = a['aria-description'];
    if (ad && ad.trim()) return flat(ad);
    if (tag === 'table' && nameSource !== 'caption' && el.caption) {
      var c = flat(nameFromContent(el.caption, null, false, 1));
      if (c) return c;
    }
    if (a.title && a.title.trim() && nameSource !== 'title') {
      var t = flat(a.title);
      // (Chromium drops it when it repeats a name taken from the content)
      return t === name && nameSource === 'contents' ? '' : t;
    }
    return '';
  }

  // ---- value -----------------------------------------------------------------
  function computeValue(el, tag, a, role) {
    if (tag === 'input') {
      var t = (a.type || '').toLowerCase();
      if (t === 'checkbox' || t === 'radio' || t === 'button' || t === 'submit' || t === 'reset' || t === 'image') return '';
      if (t === 'password') return '\u2022'.repeat(el.value.length);
      if (t === 'file') return el.files && el.files.length ? el.files[0].name : 'No file chosen';
      if (t === 'range') return el.value;
      return el.value;
    }
    if (tag === 'textarea') return el.value;
    if (tag === 'select') {
      if (role !== 'combobox') return '';
      var o = el.selectedOptions;
      return o && o.length ? optionText(o[0]) : '';
    }
    if (tag === 'progress') return el.position < 0 ? '' : String(el.value);
    if (tag === 'meter') return String(el.value);
    if (RANGE_ROLES.has(role)) {
      var vn = a['aria-valuenow'];
      if (vn != null && vn !== '') return vn;
      return '';
    }
    if (role === 'combobox' || role === 'textbox' || role === 'searchbox') {
      return flat(el.textContent || '');
    }
    if (a.contenteditable != null && el.isContentEditable) return flat(el.innerText || '');
    return '';
  }

  // ---- the walk ----------------------------------------------------------------
  var vw = win.innerWidth, vh = win.innerHeight;

  function emit(node, parent, role, name, desc, value, flags, level) {
    var i = count++;
    oParent.push(parent);
    oRole.push(S(role));
    oName.push(S(name));
    oDesc.push(S(desc));
    oValue.push(S(value));
    oFlags.push(flags);
    oLevel.push(level);
    if (node && node.nodeType === 1) {
      var ln = node.localName;
      oTag.push(S(ln));
      if (ln === 'input' || ln === 'select' || ln === 'textarea' || ln === 'option') controls.push(i);
    } else oTag.push(0);
    if (KEEP_NODES) handles.push(node);
    var id = 0;
    if (node) {
      id = G.ids.get(node);
      if (id === undefined) { id = G.next++; G.ids.set(node, id); }
    }
    oId.push(id);
    return i;
  }
  function rect(i, r) {
    oBounds.push(r.left, r.top, r.width, r.height);
  }
  function noRect(i) { oBounds.push(0, 0, -1, -1); oBk.push(BK_NONE); }
  function setRect(i, x, y, w, h) {
    oBounds[4 * i] = x; oBounds[4 * i + 1] = y; oBounds[4 * i + 2] = w; oBounds[4 * i + 3] = h;
  }
  // The rows walked (o*) in the compact encoding, into out.
  function quantize(from, to, o, scale) {
    if (from[o + 2] < 0) { to[o] = 0; to[o + 1] = 0; to[o + 2] = -1; to[o + 3] = -1; }
    else {
      to[o] = Math.round(from[o] * scale); to[o + 1] = Math.round(from[o + 1] * scale);
      to[o + 2] = Math.round(from[o + 2] * scale); to[o + 3] = Math.round(from[o + 3] * scale);
    }
  }
  function encodeRows(out, scale) {
    out.encoding = 'compact';
    out.scale = scale;
    var depth = new Array(count), ids = new Array(count), bq = new Array(4 * count);
    var desc = [], value = [], level = [];
    var prevId = 0;
    for (var i = 0; i < count; i++) {
      var p = oParent[i];
      depth[i] = p < 0 ? 0 : depth[p] + 1;
      ids[i] = oId[i] - prevId; prevId = oId[i];
      if (oDesc[i]) desc.push(i, oDesc[i]);
      if (oValue[i]) value.push(i, oValue[i]);
      if (oLevel[i]) level.push(i, oLevel[i]);
      quantize(oBounds, bq, 4 * i, scale);
    }
    out.depth = depth; out.role = oRole; out.name = oName; out.flags = oFlags; out.id = ids; out.bounds = bq;
    out.tag = oTag;
    out.desc = desc; out.value = value; out.level = level;
  }

  // ---- splice: walk again only the subtrees that changed ----------------------
  // The mutation records name nodes (TRACK.dirty); each is walked again
  // from the nearest element whose walk covers everything the change can
  // reach: a box that is not inline (its neighbours' whitespace does not
  // look inside it), a whole table, select or paragraph, a whole editing
  // host, an element the last walk visited and that left rows. Its old rows
  // are replaced by the new ones; then the names and descriptions of the
  // rows above it and of rows named by other elements (labels, ARIA
  // references), the states and values of form controls and of the focus,
  // and every box (the layout may have moved anything) are read again.
  // null: walk whole (a frame inside, a modal dialog or a scroll container
  // changed, too much changed, a row whose node is gone).
  // A row index of the walk VISIT_K splices ago, in today's walk (-1: it
  // was inside rows replaced since).
  function spliceAt(x, k) {
    for (var i = k; i < G.shifts.length; i++) {
      var sh = G.shifts[i];
      if (x >= sh.at + sh.remove) x += sh.add - sh.remove;
      else if (x > sh.at) return -1;
    }
    return x;
  }
  function spliceTarget(n) {
    var el = n;
    for (var guard = 0; guard < 4096; guard++) {
      if (!el) return whole('a change outside the document');
      if (el.nodeType === 11) { el = el.host; continue; }
      if (el.nodeType !== 1) { el = el.parentNode; continue; }
      if (el === doc.documentElement || el === doc.body || el === doc.head) return whole('a change of <' + el.localName + '>' + (SLICE_WHY ? ' (' + SLICE_WHY + ')' : ''));
      var v = G.visits.get(el), up = false;
      if (!v) up = true;
      else {
        var d = D(el);
        var c = el.closest('table,select,datalist,p,[role=table],[role=grid],[role=treegrid]');
        if (c && c !== el) { el = c; continue; }
        if (d === 'inline' || d === 'contents') up = true;
        else if (el.isContentEditable && el.parentElement && el.parentElement.isContentEditable) up = true;
        else {
          var st = spliceAt(v.s, v.k), en = spliceAt(v.e, v.k), pr = spliceAt(v.pr, v.k);
          if (st < 0 || en < 0 || pr < 0 || en <= st) up = true;
          else {
            if (el.querySelector('iframe,frame,object,embed')) return whole('a frame in a changed subtree');
            return { el: el, v: v, s: st, e: en, pr: pr };
          }
        }
      }
      if (up) el = flatParent(el);
    }
    return whole('no element to walk again');
  }
  // In flow and not inline: whitespace beside it neither looks inside it
  // nor past it, and its parent is not a run of inline content.
  function isAnchor(n) {
    if (!n || n.nodeType !== 1 || SKIP_TAGS.has(n.localName)) return false;
    var d = D(n);
    if (isInlineDisplay(d) || d === 'contents' || d === 'none') return false;
    var pos = POS(n);
    return pos !== 'absolute' && pos !== 'fixed' && FL(n) === 'none';
  }
  // A change among P's children between before and after (as the record
  // saw them): walk again only the children from the nearest anchor
  // before it to the nearest anchor after it (both included, so the part
  // replaces at least one row; a missing one: from P's first child, to its
  // last). Anchors are children the last walk visited that did not change
  // themselves. null: walk P whole (spliceTarget).
  var SLICE_WHY = '';
  function noSlice(w) { SLICE_WHY = w; return null; }
  function sliceTarget(P, before, after, changed) {
    SLICE_WHY = '';
    if (G.sibSel) return noSlice('style rules match on sibling order');
    var host = P.nodeType === 11 ? P.host : P;
    if (!host || host.nodeType !== 1 || host === doc.documentElement || host === doc.head) return noSlice('not an element');
    if (P.nodeType === 1 && (P.shadowRoot || P.localName === 'slot')) return noSlice('a shadow host or slot');
    var d = D(host);
    if (d === 'inline' || d === 'contents' || host.isContentEditable) return noSlice('inline or editable');
    if (host.closest('table,select,datalist,p,[role=table],[role=grid],[role=treegrid]')) return noSlice('in a table, select or paragraph');
    function anchor(n) { return isAnchor(n) && G.visits.has(n) && !changed.has(n); }
    var a1 = before && before.parentNode === P ? before : null;
    if (before && !a1) return noSlice('the node before moved');
    while (a1 && !anchor(a1)) a1 = a1.previousSibling;
    var a2 = after && after.parentNode === P ? after : null;
    if (after && !a2) return noSlice('the node after moved');
    while (a2 && !anchor(a2)) a2 = a2.nextSibling;
    var v1 = a1 ? G.visits.get(a1) : null, v2 = a2 ? G.visits.get(a2) : null, v = v1 || v2;
    if (!v) return noSlice('no anchor');
    if (v1 && v2 && v1.p !== v2.p) return noSlice('anchors of two walks');  // (a node moved here keeps its old record)
    var start, end, pr = spliceAt(v.pr, v.k);
    if (v1) {
      start = spliceAt(v1.s, v1.k);
      if (start < 0 || spliceAt(v1.e, v1.k) <= start) return noSlice('the anchor before has no rows');
    }
    if (v2) {
      end = spliceAt(v2.e, v2.k);
      if (spliceAt(v2.s, v2.k) < 0 || end <= spliceAt(v2.s, v2.k)) return noSlice('the anchor after has no rows');
    }
    if (!v1 || !v2) {
      // From P's first child or to its last: P's rows without P's own row
      // and without generated content.
      var vp = G.visits.get(host);
      if (P !== host || !vp) return noSlice('no record of the parent');
      if (pseudoContent(host, '::before') || pseudoContent(host, '::after')) return noSlice('generated content');
      var ps0 = spliceAt(vp.s, vp.k), pe0 = spliceAt(vp.e, vp.k);
      if (ps0 < 0 || pe0 < 0) return noSlice('the parent lost its place');
      if (!v1) start = G.last.handles[ps0] === host ? ps0 + 1 : ps0;
      if (!v2) end = pe0;
    }
    if (pr < 0 || start < 0 || end <= start) return noSlice('no rows to replace');
    return { el: host, v: v, s: start, e: end, pr: pr, slice: [P, a1, a2] };
  }
  function trySplice() {
    var L = G.last;
    if (!L || !G.visits || !L.scrollers || !KEEP_NODES || !BOUNDS) return whole('no walk to splice');
    VISITS = G.visits;
    SCROLLERS = L.scrollers;
    var baseCount = L.count;
    var md = null;
    try { md = doc.querySelector('dialog:modal'); } catch (e) { /* old engines */ }
    if (md !== L.modal) return whole('a modal dialog opened or closed');
    // A scroll container that starts or stops scrolling changes its row
    // (and maybe whether it is kept) wherever it is.
    var moved = false;
    L.scrollers.forEach(function (was, el) { if (el.isConnected && scrolls(el) !== was) moved = true; });
    if (moved) return whole('a scroll container started or stopped scrolling');
    var rowOf = new Map();
    for (var i = 0; i < L.count; i++) if (L.handles[i]) rowOf.set(L.handles[i], i);
    var dirty = TRACK.dirty.slice();
    for (var a = 0; a < TRACK.attrs.length; a++) {
      var ta = TRACK.attrs[a];
      if (!rowOf.has(ta)) dirty.push(ta.parentNode ? [ta.parentNode, ta.previousSibling, ta.nextSibling, ta] : ta);
    }
    var changed = new Set();
    for (var cd = 0; cd < dirty.length; cd++) if (Array.isArray(dirty[cd]) && dirty[cd][3]) changed.add(dirty[cd][3]);
    var targets = [], byParent = new Map();
    for (var t = 0; t < dirty.length; t++) {
      var dn = dirty[t], tg;
      // (a removed node: its connected ancestor was noted too)
      if (Array.isArray(dn)) {
        if (!dn[0] || !dn[0].isConnected) continue;
        tg = sliceTarget(dn[0], dn[1], dn[2], changed) || spliceTarget(dn[0]);
      } else {
        if (!dn || !dn.isConnected) continue;
        tg = spliceTarget(dn);
      }
      if (!tg) return null;   // (why: said by spliceTarget)
      if (tg.slice) {
        // Changes among the same children: one part from the first anchor
        // to the last.
        var m = byParent.get(tg.slice[0]);
        if (m) {
          if (tg.s < m.s) { m.s = tg.s; m.slice[1] = tg.slice[1]; }
          if (tg.e > m.e) { m.e = tg.e; m.slice[2] = tg.slice[2]; }
          continue;
        }
        byParent.set(tg.slice[0], tg);
      }
      targets.push(tg);
    }
    targets.sort(function (x, y) { return x.s - y.s || y.e - x.e; });
    var parts = [], lastEnd = -1, replaced = 0;
    for (var u = 0; u < targets.length; u++) {
      var g = targets[u];
      if (g.s < lastEnd) {
        if (g.e <= lastEnd) continue;        // inside one already taken
        return whole('changed subtrees overlap');
      }
      for (var f = g.s; f < g.e; f++) if (L.flags[f] & F_FRAME) return whole('a frame in a changed subtree');
      parts.push(g);
      lastEnd = g.e;
      replaced += g.e - g.s;
    }
    // No part: only boxes moved (a scroll), unless what changed is out of reach.
    if (!parts.length && dirty.length) return whole('nothing to walk again');
    if (replaced > L.count / 2) return whole('over half of the page changed');

    // Walk each part again and put its rows in place of the old ones.
    var tFind = performance.now();
    var k0 = G.shifts.length, added = [];
    for (var q = 0; q < parts.length; q++) {
      var P = parts[q];
      var at = spliceAt(P.s, k0), end = spliceAt(P.e, k0), pr = spliceAt(P.pr, k0);
      if (at < 0 || end < 0 || pr < 0) return whole('a changed subtree lost its place');
      var start = count;
      REBASE = at - start;
      TOP_PR = pr;
      VISIT_K = G.shifts.length + 1;
      styleCands = null;
      pseudoSets = new Map();
      if (P.slice) {
        var SP = P.slice[0], kids = SP.childNodes;
        var i0 = P.slice[1] ? Array.prototype.indexOf.call(kids, P.slice[1]) : 0;
        var i1 = P.slice[2] ? Array.prototype.indexOf.call(kids, P.slice[2]) : kids.length - 1;
        if (i0 < 0 || i1 < i0) return whole('the children of a change moved');
        SCOPE = [];
        for (var sk = i0; sk <= i1; sk++) if (kids[sk].nodeType === 1) SCOPE.push(kids[sk]);
        var tp = SP.nodeType === 11 ? SP.host : SP, tps = R(tp);
        for (var kk = i0; kk <= i1; kk++) {
          var kid = kids[kk];
          if (kid.nodeType === 1) {
            try { walkElement(kid, -1, P.v.p); } catch (e) { errors++; if (!firstError) firstError = String(e && e.stack || e).slice(0, 300); }
          } else if (kid.nodeType === 3) walkText(kid, kids, kk, tp, -1, P.v.p, tps, -1);
        }
      } else {
        SCOPE = [P.el];
        walkElement(P.el, -1, P.v.p);
      }
      var add = count - start;
      G.shifts.push({ at: at, remove: end - at, add: add });
      added.push(at, end - at, add, pr);
      // The new rows in L (parents as today's indices).
      var delta = add - (end - at);
      var nParent = [], nDepth = [], nRoles = [], nNames = [], nDescs = [], nValues = [], nTags = [];
      for (var j = start; j < count; j++) {
        var pj = oParent[j] < 0 ? pr : oParent[j] + REBASE;
        nParent.push(pj);
        nDepth.push(pj < at ? L.depth[pj] + 1 : nDepth[pj - at] + 1);
        nRoles.push(strings[oRole[j]]); nNames.push(strings[oName[j]]); nDescs.push(strings[oDesc[j]]);
        nValues.push(strings[oValue[j]]); nTags.push(strings[oTag[j]]);
      }
      for (var x = end; x < L.count; x++) if (L.parent[x] >= end) L.parent[x] += delta;
      var rm = end - at;
      L.handles.splice.apply(L.handles, [at, rm].concat(handles.slice(start)));
      L.parent.splice.apply(L.parent, [at, rm].concat(nParent));
      L.depth.splice.apply(L.depth, [at, rm].concat(nDepth));
      L.roles.splice.apply(L.roles, [at, rm].concat(nRoles));
      L.names.splice.apply(L.names, [at, rm].concat(nNames));
      L.descs.splice.apply(L.descs, [at, rm].concat(nDescs));
      L.values.splice.apply(L.values, [at, rm].concat(nValues));
      L.tags.splice.apply(L.tags, [at, rm].concat(nTags));
      L.flags.splice.apply(L.flags, [at, rm].concat(oFlags.slice(start)));
      L.bk.splice.apply(L.bk, [at, rm].concat(oBk.slice(start)));
      L.count += delta;
    }
    SCOPE = null;
    var tWalk = performance.now();

    // What the new rows change around them.
    var again = new Set();
    for (var w = 0; w < added.length; w += 4) {
      for (var an = added[w + 3]; an > 0; an = L.parent[an]) again.add(an);
    }
    var fresh = [];          // [from, to) of the new rows
    for (var z = 0; z < added.length; z += 4) fresh.push(added[z], added[z] + added[z + 2]);
    function isFresh(r) {
      for (var y = 0; y < fresh.length; y += 2) if (r >= fresh[y] && r < fresh[y + 1]) return true;
      return false;
    }
    var controlsNow = [];
    for (var c = 0; c < L.count; c++) {
      var h = L.handles[c];
      if (!h || h.nodeType !== 1) continue;
      var tg2 = L.tags[c];
      if (tg2 === 'input' || tg2 === 'select' || tg2 === 'textarea' || tg2 === 'option') controlsNow.push(c);
      if (isFresh(c)) continue;
      if (h.hasAttribute('aria-labelledby') || h.hasAttribute('aria-describedby') ||
          (h.labels && h.labels.length)) again.add(c);
    }
    var fe = doc.hasFocus() ? deepActive() : null;
    var focusAt = fe ? L.handles.indexOf(fe) : -1;
    var oldFocus = L.focusHandle ? L.handles.indexOf(L.focusHandle) : -1;
    var states = new Set(controlsNow);
    if (oldFocus >= 0) states.add(oldFocus);
    if (focusAt >= 0) states.add(focusAt);
    for (var at2 = 0; at2 < TRACK.attrs.length; at2++) {
      var ar = L.handles.indexOf(TRACK.attrs[at2]);
      if (ar >= 0) states.add(ar);
    }
    again.forEach(function (r) { states.add(r); });
    var rowsOut = [], namesOut = [];
    again.forEach(function (r) {
      var el = L.handles[r];
      if (!el || el.nodeType !== 1) return;
      var tag = el.localName, a = attrsOf(el) || NOATTRS, role = L.roles[r];
      var nm = tag === 'br' ? ['\n', 'contents'] : computeName(el, tag, a, role);
      var name = nm[0];
      if (role === 'generic' && nm[1] === 'contents') name = '';
      var desc = computeDescription(el, tag, a, role, nm[1], name);
      if (name !== L.names[r] || desc !== L.descs[r]) {
        L.names[r] = name; L.descs[r] = desc;
        namesOut.push(r, name, desc);
      }
    });
    var gone = false;
    states.forEach(function (r) {
      var el = L.handles[r];
      if (!el || !el.isConnected) { gone = true; return; }
      if (el.nodeType !== 1) return;
      var st = restate(el, L.roles[r], L.flags[r]);
      var fl = st[0];
      if (r === focusAt) fl |= F_FOCUSED;
      if (fl !== L.flags[r] || st[1] !== L.values[r]) {
        L.flags[r] = fl; L.values[r] = st[1];
        rowsOut.push(r, fl, st[1]);
      }
    });
    var rf = L.flags[0] & ~F_FOCUSED;
    if (doc.hasFocus()) rf |= F_FOCUSED;
    if (rf !== L.flags[0]) { L.flags[0] = rf; rowsOut.push(0, rf, L.values[0]); }
    // Every box, read again.
    var tAround = performance.now();
    var all = readBoxes(L);
    var tBoxes = performance.now();
    if (gone || all === null) return whole('a row\'s node is gone');
    L.controls = controlsNow;
    L.sx = win.scrollX; L.sy = win.scrollY;
    L.focusAt = focusAt;
    L.focusHandle = focusAt >= 0 ? L.handles[focusAt] : null;
    G.nodes = L.handles;
    G.count = L.count;
    var base = G.gen;
    G.gen++;
    resetTrack();
    var dpr0 = win.devicePixelRatio || 1, scale0 = options.boundsScale || dpr0;
    var bq = new Array(all.length);
    for (var o = 0; o < all.length; o += 4) quantize(all, bq, o, scale0);
    var rows = { v: 1, count: count, strings: strings, extra: extra, scale: scale0 };
    encodeRows(rows, scale0);
    return { v: 1, splice: base, gen: G.gen, base: baseCount, count: L.count, parts: added, walk: rows, rows: rowsOut, names: namesOut, bounds: bq,
      viewport: [win.innerWidth, win.innerHeight, dpr0, win.scrollX, win.scrollY],
      ms: { find: tFind - T0, walk: tWalk - tFind, around: tAround - tWalk, boxes: tBoxes - tAround,
        total: performance.now() - T0 } };
  }
  // Every row's box as the walk reads it (null: a row's node is gone).
  function readBoxes(L) {
    var n = L.count, b = new Array(4 * n), bk = L.bk, hs = L.handles, par = L.parent;
    var rg = doc.createRange(), iw = win.innerWidth, ih = win.innerHeight;
    var ux = new Map();
    for (var i = 0; i < n; i++) {
      var k = bk[i], o = 4 * i, r;
      if (k === BK_EL || k === BK_RANGE) {
        var h = hs[i];
        if (!h || !h.isConnected) return null;
        if (k === BK_EL) r = h.getBoundingClientRect();
        else { rg.selectNodeContents(h); r = rg.getBoundingClientRect(); }
        b[o] = r.left; b[o + 1] = r.top; b[o + 2] = r.width; b[o + 3] = r.height;
      } else if (k === BK_VIEW) { b[o] = 0; b[o + 1] = 0; b[o + 2] = iw; b[o + 3] = ih; }
      else if (k === BK_UNION) { b[o] = 0; b[o + 1] = 0; b[o + 2] = 0; b[o + 3] = 0; }
      else { b[o] = 0; b[o + 1] = 0; b[o + 2] = -1; b[o + 3] = -1; }
    }
    // Unions (display: contents): children come after their parent, so
    // from the end each union is whole when its parent takes it.
    for (var j = n - 1; j > 0; j--) {
      var q = 4 * j;
      if (bk[j] === BK_UNION) {
        var u = ux.get(j);
        if (u) { b[q] = u[0]; b[q + 1] = u[1]; b[q + 2] = u[2] - u[0]; b[q + 3] = u[3] - u[1]; }
      }
      var p = par[j];
      if (p >= 0 && bk[p] === BK_UNION && b[q + 2] >= 0) {
        var acc = ux.get(p);
        if (!acc) { acc = [Infinity, Infinity, -Infinity, -Infinity]; ux.set(p, acc); }
        acc[0] = Math.min(acc[0], b[q]); acc[1] = Math.min(acc[1], b[q + 1]);
        acc[2] = Math.max(acc[2], b[q] + b[q + 2]); acc[3] = Math.max(acc[3], b[q + 1] + b[q + 3]);
      }
    }
    for (var m = 0; m < n; m++) {
      if (bk[m] !== BK_PARENT) continue;
      var pp = 4 * par[m], mm = 4 * m;
      b[mm] = b[pp]; b[mm + 1] = b[pp + 1]; b[mm + 2] = b[pp + 2]; b[mm + 3] = b[pp + 3];
    }
    return b;
  }
  if (SPLICE) {
    var spliced = null;
    try { spliced = trySplice(); } catch (e) { spliced = whole('the splice failed: ' + String(e).slice(0, 200)); }
    if (spliced) return options.stringify ? JSON.stringify(spliced) : spliced;
    // Walk whole, from a clean slate.
    resetTrack();
    SCOPE = null; styleCands = null; pseudoSets = new Map();
    count = 0; errors = 0; firstError = '';
    strings.length = 1; stringIds.clear(); stringIds.set('', 0);
    oParent.length = oRole.length = oName.length = oDesc.length = oValue.length = oFlags.length = 0;
    oLevel.length = oId.length = oTag.length = oBounds.length = oBk.length = 0;
    handles.length = 0; controls.length = 0;
    for (var ek in extra) extra[ek].length = 0;
  }

  // Root: the document.
  var rootIndex = emit(doc, -1, 'RootWebArea', flat(doc.title || ''), '', '', F_FOCUSABLE | (doc.hasFocus() ? F_FOCUSED : 0), 0);
  oBounds.push(0, 0, vw, vh);
  oBk.push(BK_VIEW);
  extra.url.push(rootIndex, S(doc.URL));

  // ctx: what an element passes to its children.
  var ROOT_CTX = { hidden: false, vis: true, table: null, presList: false, suppressText: false, disabled: false,
    listDepth: 0, treeLevel: 0, editable: false, shadow: false, root: doc, slotted: false, container: 'RootWebArea' };

  function child(ctx) {
    return { hidden: ctx.hidden, vis: ctx.vis, table: ctx.table, presList: false, suppressText: ctx.suppressText,
      disabled: ctx.disabled, listDepth: ctx.listDepth, treeLevel: ctx.treeLevel, editable: ctx.editable,
      shadow: ctx.shadow, root: ctx.root, slotted: false, ts: ctx.ts, container: ctx.container, display: ctx.display };
  }

  function walkChildren(node, parentIndex, ctx, ps, selfIndex) {
    // ctx belongs to node's children: it takes their tree scope here.
    var kids;
    if (node.nodeType === 1) {
      var sr = node.shadowRoot;
      if (sr) { observeRoot(sr); kids = sr.childNodes; ctx.root = sr; ctx.shadow = true; }
      else if (ctx.shadow && node.localName === 'slot') {
        var as = node.assignedNodes();
        if (as.length) { kids = as; var r = as[0].getRootNode(); ctx.root = r; ctx.shadow = r !== doc; ctx.slotted = true; }
        else kids = node.childNodes;
      } else kids = node.childNodes;
    } else kids = node.childNodes;
    var n = kids.length;
    for (var i = 0; i < n; i++) {
      var k = kids[i];
      var t = k.nodeType;
      if (t === 1) {
        // One odd element must not lose the page: count it and go on.
        try { walkElement(k, parentIndex, ctx); } catch (e) { errors++; if (!firstError) firstError = String(e && e.stack || e).slice(0, 300); }
      }
      else if (t === 3) walkText(k, kids, i, node, parentIndex, ctx, ps, n === 1 ? selfIndex : -1);
    }
  }

  function walkText(t, list, i, parent, parentIndex, ctx, ps, soleOf) {
    if (!ctx.vis || ctx.suppressText) return;
    if (!ctx.vis) return;
    var ts = textStyle(parent);
    var s = textData(t, ts);
    if (!s) return;
    if (ts.mode !== 2) {
      var blank = !/[^ \t\n\r\f]/.test(t.data);
      if (blank) {
        // Chromium keeps a collapsible space only between two things that
        // read as running text (not next to a block, a control, a line end).
        if (ignorableNext(list, i, -1, parent, 0) || ignorableNext(list, i, 1, parent, 0)) return;
        s = ' ';
      } else {
        var c0 = s.charCodeAt(0), c1 = s.charCodeAt(s.length - 1);
        if (c0 === 32 || c1 === 32) {
          var e = edges(list, i, parent);
          if (e[0]) s = s.replace(/^ /, '');
          if (e[1]) s = s.replace(/ $/, '');
          if (!s) return;
        }
      }
    }
    // Only text that is laid out (a Range rect is the layout test, too).
    var idx = emit(t, parentIndex, 'StaticText', s, '', '', ctx.editable ? F_EDITABLE | F_RICH : 0, 0);
    if (soleOf >= 0 && TEXT_RECTS === 'auto' && D(parent) === 'inline') {
      var o = 4 * soleOf;
      oBounds.push(oBounds[o], oBounds[o + 1], oBounds[o + 2], oBounds[o + 3]);
      oBk.push(BK_PARENT);
    } else if (TEXT_RECTS && BOUNDS) {
      range.selectNodeContents(t);
      var r = range.getBoundingClientRect();
      oBounds.push(r.left, r.top, r.width, r.height);
      oBk.push(BK_RANGE);
    } else {
      oBounds.push(0, 0, -1, -1);
      oBk.push(BK_NONE);
    }
  }

  function emitPseudo(p, el, parentIndex, ctx) {
    if (!ctx.vis) return;
    if (!p.img && !(p.alt !== null ? p.alt : p.text)) {
      // content: "" makes no node, unless it is an atomic inline box.
      if (p.atomic) { var g = emit(null, parentIndex, 'generic', '', '', '', F_PSEUDO, 0); noRect(g); }
      return;
    }
    if (p.item) {
      for (var k = 0; k < p.parts.length; k++) if (p.parts[k].t === 's') p.parts[k].v = p.parts[k].v.trim();
    }
    var parent = parentIndex;
    if (p.block || p.atomic) {
      parent = emit(null, parentIndex, 'generic', '', '', '', F_PSEUDO, 0);
      noRect(parent);
    }
    if (p.alt !== null) {
      if (p.alt) { var a0 = emit(null, parent, 'StaticText', p.alt, '', '', F_PSEUDO, 0); noRect(a0); }
      return;
    }
    var parts = p.parts;
    for (var i = 0; i < parts.length; i++) {
      var q = parts[i];
      if (q.t === 's' && q.v) { var ix = emit(null, parent, 'StaticText', q.v, '', '', F_PSEUDO, 0); noRect(ix); }
      else if (q.t === 'img') { var ii = emit(null, parent, 'image', '', '', '', F_PSEUDO, 0); noRect(ii); }
    }
  }

  // Should a generic element be kept (not "uninteresting")?
  function keepGeneric(el, tag, a, d, inShadow) {
    if (a.any) {
      if (a.aria) return true;
      if (a.id != null && !inShadow) return true;
      if (a.title && a.title.trim()) return true;
      if (a.tabindex != null) return true;
      if (a.onclick != null) return true;
      if (a.contenteditable != null && el.isContentEditable) return true;
      if (a.role === 'generic') return true;
    }
    if (tag === 'section' || (tag === 'a' && a.name != null)) return true;
    // A scroll container whose content does overflow.
    if (d !== 'inline' && OV(el) && tag !== 'body' && tag !== 'html' &&
        (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) return true;
    // div-like elements: kept when positioned, or when they are a block
    // whose children are inline (Chromium's paragraph-like containers);
    // spans and custom elements are dropped in both cases.
    if (tag === 'div' || tag === 'center' || tag === 'td' || tag === 'th' || tag === 'body' || tag === 'pre') {
      if (POS(el) !== 'static' && tag !== 'body') return true;
      if (d === 'inline-block') return true; // (a <div>, not a <span>: see probe4)
      if (d === 'block' && CVH(el)) return false;
      if (d === 'block' || d === 'flow-root' || d === 'table-cell' || d === 'list-item') {
        // A block ::before/::after (even empty) makes the children blocks.
        if (mayHavePseudo(el)) {
          var pb = win.getComputedStyle(el, '::before'), pa = win.getComputedStyle(el, '::after');
          if ((pb.content !== 'none' && pb.content !== 'normal' && !isInlineDisplay(pb.display)) ||
              (pa.content !== 'none' && pa.content !== 'normal' && !isInlineDisplay(pa.display))) return false;
        }
        return inlineChildren(el);
      }
    }
    return false;
  }
  function inlineChildren(el) {
    var kids = kidsOf(el);
    var any = false;
    for (var i = 0; i < kids.length; i++) {
      var k = kids[i];
      if (k.nodeType === 3) { if (/[^ \t\n\r\f]/.test(k.data)) any = true; continue; }
      if (k.nodeType !== 1) continue;
      if (SKIP_TAGS.has(k.localName)) continue;
      var d = D(k);
      if (d === 'none') continue;
      var pos = POS(k);
      if (pos === 'absolute' || pos === 'fixed') continue;
      if (FL(k) !== 'none') continue;
      if (d === 'contents') { any = true; continue; }
      if (!isInlineDisplay(d)) return false;
      any = true;
    }
    return any;
  }

  // Where each element walked left its rows, for a later splice: its
  // parent's context, its parent row, and its rows [s, e), as indices of
  // the walk after VISIT_K shifts (see spliceAt).
  var VISITS = null, REBASE = 0, TOP_PR = 0, VISIT_K = 0;
  var SCROLLERS = null;      // scroll container -> did it scroll
  function walkElement(el, parentIndex, pctx) {
    var s0 = count;
    walkElementIn(el, parentIndex, pctx);
    if (VISITS) VISITS.set(el, { p: pctx, pr: parentIndex >= 0 ? parentIndex + REBASE : TOP_PR, s: s0 + REBASE,
      e: count + REBASE, k: VISIT_K });
  }
  function scrolls(el) {
    return el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
  }
  function walkElementIn(el, parentIndex, pctx) {
    var tag = el.localName;
    if (SKIP_TAGS.has(tag)) return;
    if (modalDialog && !modalDialog.contains(el) && !el.contains(modalDialog)) return; // inert outside a modal
    var a = attrsOf(el) || NOATTRS;
    if (a.any) {
      if (a['aria-hidden'] === 'true' || a.inert != null) return;
    }
    var r = R(el);
    // (inherited values come from the parent's context when not read)
    var m = readMask(el, r, a, pctx.shadow || pctx.slotted || !!el.shadowRoot);
    var display = D(el, pctx.display);
    if (display === 'none') {
      // <option>s of a closed select keep their node (no box).
      if (tag !== 'option' && tag !== 'optgroup') return;
    }
    // content-visibility:hidden skips the subtree (not the element); it
    // does not apply to inline boxes.
    if (!(m & (K_WS | K_TT))) r.ts = pctx.ts;
    var vis = r.v = (m & K_V) ? ST(r, el).visibility === 'visible' : pctx.vis;
    var cvHidden = display !== 'inline' && display !== 'contents' && CVH(el);
    var ctx = child(pctx);
    ctx.vis = vis;
    ctx.display = display;
    if (SCROLLERS && display !== 'inline' && display !== 'contents' && display !== 'none' && tag !== 'body' &&
        tag !== 'html' && OV(el)) SCROLLERS.set(el, scrolls(el));
    ctx.ts = textStyle(el, pctx.ts);
    var inShadow = pctx.shadow;

    // Role.
    var role = a.any ? explicitRole(a) : null;
    var focusable = isFocusable(el, tag, a);
    if (role === 'none' && (focusable || a.aria)) role = null; // conflict resolution
    if (role === 'generic' && tag !== 'div' && tag !== 'span') { /* explicit generic */ }
    if (role === null) role = implicitRole(el, tag, a, pctx);
    if (role === null) return; // input type=hidden
    if (role === 'region' && !hasName(el, a)) role = 'generic';
    // Required context (Chromium enforces it for these three): otherwise
    // the element's implicit role.
    if ((role === 'option' && tag !== 'option' && !(pctx.container === 'listbox' || pctx.container === 'combobox' || pctx.container === 'group')) ||
        (role === 'listitem' && !(pctx.container === 'list' || pctx.container === 'group' || pctx.container === 'directory')) ||
        (role === 'treeitem' && !(pctx.container === 'tree' || pctx.container === 'group'))) {
      role = implicitRole(el, tag, NOATTRS, pctx);
      if (role === 'listitem' && !(pctx.container === 'list' || pctx.container === 'group')) role = 'generic';
    }
    if (role === 'generic' && a.draggable === 'true') role = 'group';
    if ((role === 'none') && (tag === 'table' || tag === 'ul' || tag === 'ol')) {
      if (tag === 'table') ctx.table = 'pres'; else ctx.presList = true;
    }
    if (tag === 'table' && role !== 'none') ctx.table = role === 'LayoutTable' ? 'layout' : (role === 'grid' || role === 'treegrid' ? 'grid' : 'data');
    if (role === 'grid' || role === 'treegrid') ctx.table = 'grid';

    // Is it exposed?
    var keep;
    if (role === 'none' || tag === 'html' || tag === 'slot') keep = false;
    else if (role === 'generic' && !(a.any && a.role && explicitRole(a) === 'generic')) keep = keepGeneric(el, tag, a, display, inShadow) || focusable;
    else keep = true;
    if (tag === 'body' && role === 'generic') keep = keepGeneric(el, tag, a, display, inShadow);
    if (!vis) keep = false;
    if (display === 'contents' && role === 'generic') keep = keep && a.any > 0 && a.aria;

    // Label of a checkbox/radio: Chromium drops it and its text.
    if (tag === 'label') {
      var ctl = el.control;
      if (ctl && ctl.localName === 'input' && (ctl.type === 'checkbox' || ctl.type === 'radio') && ctl.getClientRects().length > 0) {
        keep = false;
        ctx.suppressText = true;
      }
    }
    if (tag === 'img' && role === 'none') keep = false;
    // A <p> laid out as flex/grid has no line boxes of its own: Chromium
    // drops it (like an empty paragraph).
    if (tag === 'p' && role === 'paragraph' && (display === 'flex' || display === 'grid' || display === 'inline-flex' ||
        display === 'inline-grid') && !a.aria) keep = false;

    var index = parentIndex;
    if (keep) {
      var flags = 0;
      if (focusable) flags |= F_FOCUSABLE;
      if (focusedEl === el) flags |= F_FOCUSED;
      var nm = tag === 'br' ? ['\n', 'contents'] : computeName(el, tag, a, role);
      var name = nm[0];
      if (display !== 'inline' && display !== 'contents' && OV(el) && tag !== 'body' && tag !== 'html') {
        // A scroll container whose content overflows: it scrolls, and
        // Chromium makes it keyboard-focusable when nothing inside is.
        if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) {
          flags |= F_SCROLLABLE;
          if (!focusable && !el.querySelector(FOCUSABLE_SEL)) { focusable = true; flags |= F_FOCUSABLE; }
        }
      }
      if (role === 'generic' && nm[1] === 'contents') name = '';
      var desc = computeDescription(el, tag, a, role, nm[1], name);
      var value = '';
      var level = 0;
      // States.
      if ((CONTROL_TAGS.has(tag) && el.matches(':disabled')) || a['aria-disabled'] === 'true' || pctx.disabled) {
        if (focusable || a['aria-disabled'] === 'true' || pctx.disabled || tag === 'input' || tag === 'button' ||
            tag === 'select' || tag === 'textarea' || tag === 'option') flags |= F_DISABLED;
      }
      if (a['aria-disabled'] === 'true') ctx.disabled = true;
      if (tag === 'input' || tag === 'textarea') {
        var ty = (a.type || '').toLowerCase();
        var texty = tag === 'textarea' || TEXT_INPUTS.has(ty) || ty === 'number' || !(ty === 'checkbox' ||
          ty === 'radio' || ty === 'range' || ty === 'color' || ty === 'file' || ty === 'button' || ty === 'submit' ||
          ty === 'reset' || ty === 'image' || ty === 'date' || ty === 'time' || ty === 'datetime-local' ||
          ty === 'month' || ty === 'week');
        if (texty) {
          flags |= F_EDITABLE;
          if (el.readOnly) flags |= F_READONLY;
          if (tag === 'textarea') flags |= F_MULTILINE;
          if (a.placeholder) extra.placeholder.push(count, S(a.placeholder));
        }
        if (el.required) flags |= F_REQUIRED;
        if (ty === 'checkbox' || ty === 'radio') {
          flags |= F_CHECKABLE;
          if (el.indeterminate && ty === 'checkbox') flags |= F_MIXED;
          else if (el.checked) flags |= F_CHECKED;
        }
      } else if (tag === 'select') {
        if (el.required) flags |= F_REQUIRED;
        if (el.multiple) flags |= F_MULTISELECTABLE;
        if (role === 'combobox') flags |= F_COLLAPSED;
      } else if (tag === 'option') {
        flags |= F_SELECTABLE;
        if (el.selected) flags |= F_SELECTED;
      } else if (tag === 'summary' && role === 'DisclosureTriangle') {
        flags |= el.parentElement.open ? F_EXPANDED : F_COLLAPSED;
      } else if (tag === 'dialog') {
        if (el.matches(':modal')) flags |= F_MODAL;
      }
      if ((pctx.editable || a.contenteditable != null) && el.isContentEditable) {
        var host = el.parentElement;
        ctx.editable = true;
        if (a.contenteditable != null || !host || !host.isContentEditable) {
          flags |= F_EDITABLE | F_RICH;
          if (a.contenteditable != null && role !== 'textbox') value = flat(el.innerText || '');
        }
      }
      if (a.any) {
        flags = ariaStates(a, role, tag, flags);
        if (a['aria-modal'] === 'true' && (role === 'dialog' || role === 'alertdialog')) flags |= F_MODAL;
        if (a['aria-multiselectable'] === 'true' && MULTISELECT_ROLES.has(role)) flags |= F_MULTISELECTABLE;
        if (a['aria-readonly'] === 'true' && READONLY_ROLES.has(role)) flags |= F_READONLY;
        if (a['aria-required'] === 'true') flags |= F_REQUIRED;
        if (a['aria-invalid'] && a['aria-invalid'] !== 'false') flags |= F_INVALID;
        if (a['aria-multiline'] === 'true') flags |= F_MULTILINE;
        if (a['aria-placeholder'] && !(tag === 'input' || tag === 'textarea')) extra.placeholder.push(count, S(a['aria-placeholder']));
        if (RANGE_ROLES.has(role)) {
          if (a['aria-valuemin'] != null) extra.valuemin.push(count, +a['aria-valuemin']);
          if (a['aria-valuemax'] != null) extra.valuemax.push(count, +a['aria-valuemax']);
          if (a['aria-valuetext'] != null) extra.valuetext.push(count, S(a['aria-valuetext']));
        }
      }
      if ((role === 'textbox' || role === 'searchbox') && tag !== 'input' && tag !== 'textarea' && !(flags & F_EDITABLE)) {
        // ARIA textbox without contenteditable: not editable.
      }
      // Value.
      if (!value) value = computeValue(el, tag, a, role);
      if (tag === 'input' && (role === 'slider' || role === 'spinbutton')) {
        if (el.min !== '') extra.valuemin.push(count, +el.min);
        if (el.max !== '') extra.valuemax.push(count, +el.max);
      }
      // Level.
      if (role === 'heading') {
        var al = parseInt(a['aria-level'], 10);
        level = al > 0 ? al : (tag.length === 2 && tag[0] === 'h' ? +tag[1] : 2);
      } else if (role === 'treeitem') {
        var tl = parseInt(a['aria-level'], 10);
        level = tl > 0 ? tl : pctx.treeLevel + 1;
        ctx.treeLevel = level;
      } else if (role === 'listitem') {
        level = pctx.listDepth;
      }
      if (role === 'list') ctx.listDepth = pctx.listDepth + 1;
      if (role === 'link' && tag === 'a') extra.url.push(count, S(typeof el.href === 'string' ? el.href : a.href));
      else if (role === 'image' && tag === 'img') extra.url.push(count, S(el.currentSrc || el.src));
      else if (tag === 'input' && a.type && a.type.toLowerCase() === 'image') extra.url.push(count, S(el.src));
      if (role === 'Iframe') {
        // The child frame's viewport starts at the content box: border +
        // padding from the border box the bounds give.
        flags |= F_FRAME;
        var fst = ST(r, el);
        extra.frames.push(count, el.clientLeft + (parseFloat(fst.paddingLeft) || 0),
          el.clientTop + (parseFloat(fst.paddingTop) || 0));
      }
      index = emit(el, parentIndex, role, name, desc, value, flags, level);
      if (a) {
        // The attributes a reader needs beside the computed facts.
        for (var ai = 0; ai < OUT_ATTRS.length; ai++) {
          var av = a[OUT_ATTRS[ai]];
          if (av != null) extra.attrs.push(index, S(OUT_ATTRS[ai]), S(av));
        }
      }
      if (role !== 'generic') ctx.container = role;
      if (display === 'contents') {
        oBounds.push(0, 0, 0, 0); // union of the children, below
        oBk.push(BK_UNION);
      } else {
        if (BOUNDS) {
          var r = el.getBoundingClientRect();
          oBounds.push(r.left, r.top, r.width, r.height);
          oBk.push(BK_EL);
        } else { oBounds.push(0, 0, -1, -1); oBk.push(BK_NONE); }
        if (display === 'none') { oBounds[4 * index + 2] = -1; oBounds[4 * index + 3] = -1; oBk[index] = BK_NONE; }
      }
    } else if (role === 'list' || (tag === 'ul' || tag === 'ol')) {
      ctx.listDepth = pctx.listDepth + (role === 'none' ? 0 : 1);
    }

    // Children.
    if (tag === 'iframe' || tag === 'frame' || tag === 'object' || tag === 'embed') return;
    if (tag === 'input' || tag === 'textarea' || tag === 'img' || tag === 'canvas' || tag === 'video' ||
        tag === 'audio' || tag === 'hr' || tag === 'meter' || tag === 'progress' || tag === 'svg' || tag === 'math') return;
    if (tag === 'select') {
      // Options (no MenuListPopup: it lives in the user-agent shadow tree).
      var opts = el.children;
      for (var oi = 0; oi < opts.length; oi++) {
        var o = opts[oi];
        if (o.localName === 'option' || o.localName === 'optgroup') walkElement(o, index, ctx);
      }
      return;
    }
    if (tag === 'option') return;
    if (tag === 'optgroup') {
      for (var gi = 0; gi < el.children.length; gi++) walkElement(el.children[gi], index, ctx);
      return;
    }
    if (cvHidden) return;
    if (tag === 'details' && !el.open) {
      // Closed: only its summary.
      for (var c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName === 'summary') { walkElement(c, index, ctx); break; }
      }
      return;
    }
    var before = null, after = null;
    if (vis && mayHavePseudo(el, pctx.root)) {
      before = pseudoContent(el, '::before');
      after = pseudoContent(el, '::after');
    }
    if ((before || after) && (display === 'flex' || display === 'grid' || display === 'inline-flex' || display === 'inline-grid')) {
      // Pseudo elements of a flex/grid container are its items (blocks).
      if (before) before.item = true;
      if (after) after.item = true;
    }
    if (before) emitPseudo(before, el, index, ctx);
    walkChildren(el, index, ctx, r, keep && !before && !after ? index : -1);
    if (after) emitPseudo(after, el, index, ctx);
    if (keep && display === 'contents') unionChildren(index);
    // An empty paragraph (nothing exposed inside) is dropped by Chromium.
    if (keep && tag === 'p' && index === count - 1 && !oName[index]) unemit();
  }
  function unemit() {
    count--;
    oParent.pop(); oRole.pop(); oName.pop(); oDesc.pop(); oValue.pop(); oFlags.pop(); oLevel.pop(); oId.pop(); oTag.pop();
    if (KEEP_NODES) handles.pop();
    oBounds.length -= 4;
    oBk.pop();
  }

  function unionChildren(index) {
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (var i = index + 1; i < count; i++) {
      if (oParent[i] !== index) continue;
      var w = oBounds[4 * i + 2];
      if (w < 0) continue;
      var x = oBounds[4 * i], y = oBounds[4 * i + 1], h = oBounds[4 * i + 3];
      if (x < x0) x0 = x; if (y < y0) y0 = y;
      if (x + w > x1) x1 = x + w; if (y + h > y1) y1 = y + h;
    }
    if (x0 !== Infinity) setRect(index, x0, y0, x1 - x0, y1 - y0);
  }

  var T1 = performance.now();
  if (doc.documentElement) {
    var htmlR = R(doc.documentElement);
    htmlR.v = ST(htmlR, doc.documentElement).visibility === 'visible';
    htmlR.d = ST(htmlR, doc.documentElement).display;
    ROOT_CTX.vis = htmlR.v;
    ROOT_CTX.ts = textStyle(doc.documentElement, TS_DEFAULT);
    ROOT_CTX.display = htmlR.d;
    if (KEEP_NODES) {
      VISITS = G.visits = new WeakMap();
      SCROLLERS = new Map();
      G.shifts = [];
      REBASE = 0; VISIT_K = 0;
    }
    walkChildren(doc.documentElement, rootIndex, ROOT_CTX, htmlR);
  }
  var T2 = performance.now();

  if (KEEP_NODES) G.nodes = handles;
  G.count = count;
  G.gen++;
  function texts(col) {
    var t = new Array(count);
    for (var ti = 0; ti < count; ti++) t[ti] = strings[col[ti]];
    return t;
  }
  var lastDepth = new Array(count);
  for (var ld = 0; ld < count; ld++) lastDepth[ld] = oParent[ld] < 0 ? 0 : lastDepth[oParent[ld]] + 1;
  var focusAt0 = focusedEl ? handles.indexOf(focusedEl) : -1;
  // What a patch or a splice of this walk needs (rows by index).
  G.last = KEEP_NODES ? {
    at: Date.now(), handles: handles.slice(), roles: texts(oRole), names: texts(oName), descs: texts(oDesc),
    values: texts(oValue), tags: texts(oTag), flags: oFlags.slice(), parent: oParent.slice(), depth: lastDepth,
    bk: oBk.slice(), controls: controls, count: count, focusAt: focusAt0,
    focusHandle: focusAt0 >= 0 ? focusedEl : null, modal: modalDialog, scrollers: SCROLLERS,
    vw: vw, vh: vh, sx: win.scrollX, sy: win.scrollY, dpr: win.devicePixelRatio || 1, title: doc.title,
    url: doc.URL, sheets: sheetsKey()
  } : null;
  // For actions: the node of a stable id (or null), e.g.
  // Runtime.callFunctionOn('function(id){return __cupWalker.find(id)}') in
  // this world, then DOM.* calls with the returned objectId.
  G.find = function (id) {
    var n = G.nodes;
    for (var i = 0; i < n.length; i++) if (n[i] && G.ids.get(n[i]) === id) return n[i];
    return null;
  };

  // ---- encoding --------------------------------------------------------------
  // Compact by default (REPORT.md, "Encoding"): the tree as pre-order
  // depths; stable ids as deltas from the previous node's; bounds as
  // integers in units of 1/scale CSS px (scale defaults to the device pixel
  // ratio, so they are screen pixels of this frame's viewport; no box is
  // w = h = -1); description, value and level sparse ([index, value] pairs).
  // options.encoding = 'plain' gives the plain columns (debugging).
  var dpr = win.devicePixelRatio || 1;
  var scale = options.boundsScale || dpr;
  var out = {
    v: 1, gen: G.gen, url: doc.URL, base: doc.baseURI, title: doc.title,
    viewport: [vw, vh, dpr, win.scrollX, win.scrollY],
    count: count, strings: strings, extra: extra,
    ms: { setup: T1 - T0, walk: T2 - T1, total: 0 }
  };
  if (errors) { out.errors = errors; out.firstError = firstError; }
  if (WHY) out.why = WHY;
  var direct = (STYLE_ALL ? 1 : 0) | (pseudoCandidates === null ? 2 : 0);
  if (direct) out.direct = direct;
  if (options.encoding === 'plain') {
    out.encoding = 'plain';
    out.parent = oParent; out.role = oRole; out.name = oName; out.desc = oDesc; out.value = oValue;
    out.flags = oFlags; out.level = oLevel; out.id = oId; out.bounds = oBounds; out.tag = oTag;
  } else encodeRows(out, scale);
  out.ms.total = performance.now() - T0;
  if (options.stringify) return JSON.stringify(out);
  return out;
})
