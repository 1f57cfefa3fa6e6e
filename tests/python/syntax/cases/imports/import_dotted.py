# min: 3.8
import xml.etree.ElementTree

def main():
    return xml.etree.ElementTree.fromstring("<a>t</a>").text
