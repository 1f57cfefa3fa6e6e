# min: 3.8
def any_unencodable(headers):
    binary = False
    for keyword, value in headers.items():
        try:
            value.encode("ascii", "strict")
        except UnicodeEncodeError:
            binary = True
            break
    records = b""
    if binary:
        records += b"hdrcharset=BINARY\n"
    return records, binary


def main():
    return [any_unencodable({"a": "x", "b": "y"}), any_unencodable({"a": "\xe9", "b": "y"}), any_unencodable({})]
