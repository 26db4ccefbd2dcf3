#!/usr/bin/env python3
"""Offline, strict validation of agent-sandbox custom resources.

The API server validates a custom resource against the openAPIV3Schema of
its CustomResourceDefinition; with field validation "Strict" (kubectl's
default since 1.27) a field the schema does not define is an error, not
silently pruned. This script does the same without a cluster:

* every object schema that neither lists additionalProperties nor sets
  x-kubernetes-preserve-unknown-fields gets additionalProperties: false, so
  an unknown or misspelt field anywhere (the embedded PodSpec included) fails;
* the served version named by apiVersion is used; a version not served, or
  marked deprecated, fails;
* formats int32, int64 and date-time are checked, and so are the entries of
  x-kubernetes-list-type map (unique keys) and set (unique items);
* metadata is checked as the API server checks ObjectMeta (known fields,
  name, label keys and values), since the CRD schema leaves it open.

CEL rules (x-kubernetes-validations) are counted, not evaluated; the vendored
CRDs of agent-sandbox v0.5.6 used here have none in the kinds validated.

Documents of other groups are built-in kinds, left to kubernetes-validate:
with --builtin-list, the path of each input that holds any is written to
that file (a copy without the custom resources when a file mixes both).
A duplicated mapping key in any document is an error, as it is for kubectl.

Usage: validate_crs.py --crds DIR [--builtin-list FILE --builtin-dir DIR] FILE...
Exit status: 0 when every document passed, 1 otherwise, 2 on bad usage.
"""

import argparse
import copy
import datetime
import glob
import os
import re
import sys

import jsonschema
import yaml

try:
    from yaml import CSafeLoader as BaseLoader
except ImportError:  # PyYAML without libyaml
    from yaml import SafeLoader as BaseLoader


class StrictLoader(BaseLoader):
    """A safe loader that refuses duplicated mapping keys."""


def _construct_mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    seen = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None,
                "duplicated key %r (first at line %d)" % (key, seen[key] + 1),
                key_node.start_mark)
        seen[key] = key_node.start_mark.line
    return loader.construct_mapping(node, deep=deep)


StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

DNS_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS_SUBDOMAIN = r"%s(\.%s)*" % (DNS_LABEL, DNS_LABEL)
QUALIFIED_NAME = r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"

OBJECT_META = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "maxLength": 253,
                 "pattern": "^%s$" % DNS_SUBDOMAIN},
        "generateName": {"type": "string"},
        "namespace": {"type": "string", "maxLength": 63,
                      "pattern": "^%s$" % DNS_LABEL},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "annotations": {"type": "object",
                        "additionalProperties": {"type": "string"}},
        "finalizers": {"type": "array", "items": {"type": "string"}},
        "ownerReferences": {"type": "array", "items": {"type": "object"}},
    },
}


def strictify(schema):
    """Returns a copy of a CRD schema node that rejects unknown fields."""
    node = copy.copy(schema)
    if node.get("type") == "object" or "properties" in node:
        if ("additionalProperties" not in node
                and not node.get("x-kubernetes-preserve-unknown-fields")):
            node["additionalProperties"] = False
    if "properties" in node:
        node["properties"] = {k: strictify(v)
                              for k, v in node["properties"].items()}
    if isinstance(node.get("additionalProperties"), dict):
        node["additionalProperties"] = strictify(node["additionalProperties"])
    if isinstance(node.get("items"), dict):
        node["items"] = strictify(node["items"])
    for key in ("anyOf", "allOf", "oneOf"):
        if key in node:
            node[key] = [strictify(s) for s in node[key]]
    if isinstance(node.get("not"), dict):
        node["not"] = strictify(node["not"])
    return node


def count_cel(schema):
    if isinstance(schema, dict):
        return (len(schema.get("x-kubernetes-validations", []))
                + sum(count_cel(v) for v in schema.values()))
    if isinstance(schema, list):
        return sum(count_cel(v) for v in schema)
    return 0


def _list_type(validator, value, instance, schema):
    if not validator.is_type(instance, "array"):
        return
    if value == "map":
        keys = schema.get("x-kubernetes-list-map-keys", [])
        props = (schema.get("items") or {}).get("properties", {})
        seen = {}
        for i, item in enumerate(instance):
            if not isinstance(item, dict):
                continue
            key = tuple(item.get(k, props.get(k, {}).get("default"))
                        for k in keys)
            if key in seen:
                yield jsonschema.ValidationError(
                    "items %d and %d have the same key %s"
                    % (seen[key], i, dict(zip(keys, key))))
            seen.setdefault(key, i)
    elif value == "set":
        for i, item in enumerate(instance):
            if item in instance[:i]:
                yield jsonschema.ValidationError(
                    "item %d repeats an earlier item of a set" % i)


FORMATS = jsonschema.FormatChecker(formats=())


@FORMATS.checks("int32")
def _int32(value):
    return not isinstance(value, int) or -2**31 <= value < 2**31


@FORMATS.checks("int64")
def _int64(value):
    return not isinstance(value, int) or -2**63 <= value < 2**63


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value):
    if not isinstance(value, str):
        return True
    if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$",
                    value):
        raise ValueError("not an RFC 3339 date-time")
    datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    return True


Validator = jsonschema.validators.extend(
    jsonschema.Draft7Validator, {"x-kubernetes-list-type": _list_type})


def label_errors(labels, where):
    errors = []
    for key, value in (labels or {}).items():
        prefix, _, name = key.rpartition("/")
        if prefix and (len(prefix) > 253
                       or not re.fullmatch(DNS_SUBDOMAIN, prefix)):
            errors.append("%s: label key %r: bad prefix" % (where, key))
        if len(name) > 63 or not re.fullmatch(QUALIFIED_NAME, name):
            errors.append("%s: label key %r: bad name" % (where, key))
        if not isinstance(value, str) or len(value) > 63 or (
                value and not re.fullmatch(QUALIFIED_NAME, value)):
            errors.append("%s: label %r: bad value %r" % (where, key, value))
    return errors


class CrdSet:
    """The CRDs of a directory, by group; schemas are made strict lazily."""

    def __init__(self, directory):
        self.crds = {}
        self.cache = {}
        paths = sorted(glob.glob(os.path.join(directory, "*.yaml")))
        if not paths:
            raise SystemExit("validate_crs.py: no CRD in %s" % directory)
        for path in paths:
            with open(path) as f:
                for doc in yaml.load_all(f, Loader=BaseLoader):
                    if doc and doc.get("kind") == "CustomResourceDefinition":
                        spec = doc["spec"]
                        self.crds[(spec["group"], spec["names"]["kind"])] = (
                            path, spec)
        self.groups = {group for group, _ in self.crds}

    def validator(self, group, version, kind):
        """Returns (validator, cel rule count) or raises LookupError."""
        key = (group, version, kind)
        if key in self.cache:
            return self.cache[key]
        if (group, kind) not in self.crds:
            raise LookupError("no CRD for kind %s in group %s" % (kind, group))
        path, spec = self.crds[(group, kind)]
        for v in spec["versions"]:
            if v["name"] == version:
                break
        else:
            raise LookupError("%s/%s: version %s is not in %s"
                              % (group, kind, version, os.path.basename(path)))
        if not v.get("served"):
            raise LookupError("%s/%s %s is not served" % (group, kind, version))
        if v.get("deprecated"):
            raise LookupError("%s/%s %s is deprecated" % (group, kind, version))
        raw = v["schema"]["openAPIV3Schema"]
        schema = strictify(raw)
        schema["properties"]["metadata"] = OBJECT_META
        schema["properties"]["apiVersion"] = {"const": "%s/%s" % (group, version)}
        schema["properties"]["kind"] = {"const": kind}
        schema.setdefault("required", [])
        schema["required"] = sorted(set(schema["required"])
                                    | {"apiVersion", "kind", "metadata"})
        self.cache[key] = (Validator(schema, format_checker=FORMATS),
                           count_cel(raw))
        return self.cache[key]


def json_path(path):
    out = "$"
    for part in path:
        out += "[%d]" % part if isinstance(part, int) else ".%s" % part
    return out


def check_custom(crds, doc):
    """Returns (errors, cel rule count) for one custom resource."""
    group, _, version = doc["apiVersion"].rpartition("/")
    try:
        validator, cel = crds.validator(group, version, doc["kind"])
    except LookupError as e:
        return [str(e)], 0
    errors = ["%s: %s" % (json_path(e.absolute_path), e.message)
              for e in sorted(validator.iter_errors(doc),
                              key=lambda e: list(map(str, e.absolute_path)))]
    if isinstance(doc.get("metadata"), dict):
        errors += label_errors(doc["metadata"].get("labels"), "$.metadata.labels")
    pod_meta = (((doc.get("spec") or {}).get("podTemplate") or {})
                .get("metadata") or {})
    if isinstance(pod_meta, dict):
        errors += label_errors(pod_meta.get("labels"),
                               "$.spec.podTemplate.metadata.labels")
    return errors, cel


def describe(doc):
    meta = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
    return "%s/%s (%s)" % (doc.get("kind"), meta.get("name", "?"),
                           doc.get("apiVersion"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crds", required=True,
                        help="directory of CustomResourceDefinition YAML")
    parser.add_argument("--builtin-list",
                        help="file to write the paths holding built-in kinds to")
    parser.add_argument("--builtin-dir",
                        help="where to write built-in-only copies of mixed files")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.builtin_list and not args.builtin_dir:
        parser.error("--builtin-list needs --builtin-dir")

    crds = CrdSet(args.crds)
    failed = 0
    builtin_paths = []
    for path in args.files:
        try:
            with open(path) as f:
                docs = [d for d in yaml.load_all(f, Loader=StrictLoader)
                        if d is not None]
        except (OSError, yaml.YAMLError) as e:
            print("FAIL %s: %s" % (path, str(e).replace("\n", " ")))
            failed += 1
            continue
        if not docs:
            print("FAIL %s: no document" % path)
            failed += 1
            continue
        builtin = []
        for n, doc in enumerate(docs):
            if not (isinstance(doc, dict) and isinstance(doc.get("apiVersion"), str)
                    and isinstance(doc.get("kind"), str)):
                print("FAIL %s: document %d has no apiVersion and kind" % (path, n))
                failed += 1
                continue
            group = doc["apiVersion"].rpartition("/")[0]
            if group not in crds.groups:
                builtin.append(doc)
                continue
            errors, cel = check_custom(crds, doc)
            if errors:
                failed += 1
                print("FAIL %s: %s:" % (path, describe(doc)))
                for line in errors[:20]:
                    print("    " + line)
                if len(errors) > 20:
                    print("    ... and %d more" % (len(errors) - 20))
            else:
                note = "; %d CEL rules not evaluated" % cel if cel else ""
                print("PASS %s: %s, strict CRD schema%s" % (path, describe(doc), note))
        if builtin:
            if len(builtin) == len(docs):
                builtin_paths.append(path)
            else:
                os.makedirs(args.builtin_dir or ".", exist_ok=True)
                copy_path = os.path.join(
                    args.builtin_dir or ".",
                    re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.relpath(path)))
                with open(copy_path, "w") as f:
                    yaml.safe_dump_all(builtin, f, sort_keys=False)
                print("SPLIT %s: its %d built-in documents are checked as %s"
                      % (path, len(builtin), copy_path))
                builtin_paths.append(copy_path)
    if args.builtin_list:
        with open(args.builtin_list, "w") as f:
            f.writelines(p + "\n" for p in builtin_paths)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
