"""norishiro inside the RAG frameworks people already use (optional extras):

* ``norishiro.integrations.langchain.NorishiroTextSplitter`` (``norishiro[langchain]``)
* ``norishiro.integrations.llamaindex.NorishiroNodeParser`` (``norishiro[llamaindex]``)
* ``norishiro.integrations.haystack.NorishiroDocumentSplitter`` (``norishiro[haystack]``)

Each keeps norishiro's exact offsets and metadata in the framework's own chunk type.
"""
